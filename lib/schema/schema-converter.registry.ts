import { BUILT_IN_CONVERTERS } from './builtin-schema.converters';
import type { SchemaConverter } from './schema-converter';

export type { SchemaConverter } from './schema-converter';
export type { ValidationRule } from './validation-metadata.adapter';

const userConverters = new Map<string, SchemaConverter>();
let generation = 0;

/**
 * Teaches the schema compiler what a custom validator means in JSON Schema. `ruleName` is the
 * name given to `@ValidateBy`/`registerDecorator`, or to `@ValidatorConstraint` for `@Validate`.
 * A converter registered under a built-in name (`'isUrl'`) replaces the built-in one. Register
 * at start-up; schemas compiled earlier are recompiled on next use.
 *
 * @example
 * const IsSlug = () => ValidateBy({ name: 'isSlug', validator: { validate: (v) => /^[a-z0-9-]+$/.test(String(v)) } });
 * registerSchemaConverter('isSlug', (_rule, schema) => {
 *   schema.type = 'string';
 *   schema.pattern = '^[a-z0-9-]+$';
 * });
 */
export function registerSchemaConverter(ruleName: string, converter: SchemaConverter): void {
  userConverters.set(ruleName, converter);
  generation++;
}

/** The converter for a rule name, the user's first; undefined when the rule says nothing schema-wise. */
export function findSchemaConverter(ruleName: string): SchemaConverter | undefined {
  return userConverters.get(ruleName) ?? (Object.hasOwn(BUILT_IN_CONVERTERS, ruleName) ? BUILT_IN_CONVERTERS[ruleName] : undefined);
}

/** Bumped on every registration; caches keyed by class compare it to know they are stale. */
export function converterGeneration(): number {
  return generation;
}
