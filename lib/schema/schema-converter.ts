import type { JsonSchema } from './json-schema.types';
import type { ValidationRule } from './validation-metadata.adapter';

/**
 * Narrows a property schema for one validation rule. It mutates `schema` in place; for a rule
 * with `each: true` it is handed the array's `items` schema instead of the property's.
 */
export type SchemaConverter = (rule: ValidationRule, schema: JsonSchema) => void;
