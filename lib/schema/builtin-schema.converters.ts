import { enumValues } from './enum-values';
import type { JsonSchema } from './json-schema.types';
import type { SchemaConverter } from './schema-converter';

// Small converter factories; each entry in the table below is one class-validator rule name.
const type = (name: string): SchemaConverter => (_rule, schema) => {
  schema.type = name;
};
const stringFormat = (format: string): SchemaConverter => (_rule, schema) => {
  schema.type = 'string';
  schema.format = format;
};
const constraint = (keyword: string, index = 0): SchemaConverter => (rule, schema) => {
  const value = rule.constraints[index];
  if (value !== undefined && value !== null) schema[keyword] = value;
};
const constant = (keyword: string, value: unknown): SchemaConverter => (_rule, schema) => {
  schema[keyword] = value;
};

/** `enum` from a list of allowed values; a list of only strings (or only numbers) also fixes `type`. */
function enumOf(values: unknown, schema: JsonSchema): void {
  if (!Array.isArray(values)) return;
  schema.enum = [...values];
  if (values.length && values.every((v) => typeof v === 'string')) schema.type = 'string';
  else if (values.length && values.every((v) => typeof v === 'number') && schema.type !== 'integer') schema.type = 'number';
}

/**
 * The built-in table: class-validator rule name -> how it narrows a property schema. Rules not
 * listed (isOptional, nestedValidation, isDefined, most string checks) add nothing a JSON Schema
 * can say; the validation still enforces them.
 */
export const BUILT_IN_CONVERTERS: Readonly<Record<string, SchemaConverter>> = Object.freeze({
  isString: type('string'),
  isBoolean: type('boolean'),
  isInt: type('integer'),
  // @IsNumber() next to @IsInt() must not widen the integer back to a number.
  isNumber: (_rule, schema) => {
    if (schema.type !== 'integer') schema.type = 'number';
  },
  isArray: type('array'),
  isObject: type('object'),
  isDate: stringFormat('date-time'),
  // ISO 8601 is wider than `date-time` (RFC 3339): plain dates, weeks, ordinal days and times
  // without an offset pass too, so no JSON Schema format says what these accept.
  isDateString: type('string'),
  isIso8601: type('string'),
  isRFC3339: stringFormat('date-time'),
  isEmail: stringFormat('email'),
  isUrl: stringFormat('uri'),
  isUuid: stringFormat('uuid'),
  isFqdn: stringFormat('hostname'),
  isIp: (rule, schema) => {
    schema.type = 'string';
    const version = String(rule.constraints[0] ?? '');
    if (version === '4' || version === '6') schema.format = `ipv${version}`;
  },
  minLength: constraint('minLength'),
  maxLength: constraint('maxLength'),
  isLength: (rule, schema) => {
    constraint('minLength', 0)(rule, schema);
    constraint('maxLength', 1)(rule, schema);
  },
  // class-validator's `@IsNotEmpty()` on a string means "not ''".
  isNotEmpty: (_rule, schema) => {
    if (schema.type === 'string' && !(Number(schema.minLength) >= 1)) schema.minLength = 1;
  },
  matches: (rule, schema) => {
    const pattern = rule.constraints[0];
    schema.type = 'string';
    schema.pattern = pattern instanceof RegExp ? pattern.source : String(pattern);
  },
  min: constraint('minimum'),
  max: constraint('maximum'),
  isPositive: constant('exclusiveMinimum', 0),
  isNegative: constant('exclusiveMaximum', 0),
  isDivisibleBy: constraint('multipleOf'),
  equals: constraint('const'),
  isIn: (rule, schema) => enumOf(rule.constraints[0], schema),
  isEnum: (rule, schema) => enumOf(enumValues(rule.constraints[0]), schema),
  isNotIn: (rule, schema) => {
    if (Array.isArray(rule.constraints[0])) schema.not = { enum: [...rule.constraints[0]] };
  },
  arrayMinSize: constraint('minItems'),
  arrayMaxSize: constraint('maxItems'),
  arrayNotEmpty: (_rule, schema) => {
    if (!(Number(schema.minItems) >= 1)) schema.minItems = 1;
  },
  arrayUnique: constant('uniqueItems', true),
});
