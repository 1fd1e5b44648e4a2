export type { JsonSchema, Validated } from './json-schema.types';
export type { ValidationRule } from './validation-metadata.adapter';
export { registerSchemaConverter, type SchemaConverter } from './schema-converter.registry';
export { compileClassSchema } from './class-schema.compiler';
export { argumentClassProblems } from './argument-class.checks';
export { compileSchemaCheck, type SchemaCheck } from './json-schema.validator';
export { compileOutputCheck, type OutputCheck } from './output-validator';
export { mcpHeaderProblems } from './mcp-header.checks';
export { issuePath } from './validation-issues.formatter';
export { checkArguments, validateArguments, type ValidateArgumentsOptions } from './argument-validator';
export { DEFAULT_MAX_ARRAY_ITEMS, oversizeArrays, withMaxItems } from './array-limits';
export type {
  BooleanProperty,
  EnumChoice,
  EnumProperty,
  FormElicitation,
  FormProperty,
  FormSpec,
  FormStringFormat,
  NumberProperty,
  RequestedSchema,
  StringProperty,
  UrlElicitation,
  UrlSpec,
} from './form-elicitation';
export { buildForm, buildUrl, toElicitParams } from './elicitation.builder';
export { compileFormClass, formClassProblems, formFromClass } from './form-schema.compiler';
export { validateFormContent } from './form-content.validator';
