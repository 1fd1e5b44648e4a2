import type { FieldOptions, TitledValues } from '../metadata/field-options';
import type { JsonSchema } from './json-schema.types';

/** A `{ const, title }` choice, the shape titled selects use on the wire. */
export interface TitledOption {
  readonly const: unknown;
  readonly title: string;
}

/**
 * Adds what `@Field` says to a property schema built from the validators. `@Field` runs last so
 * an explicit `format` or titles win over what a validator implied.
 */
export function applyFieldOptions(schema: JsonSchema, field: FieldOptions): void {
  if (field.title !== undefined) schema.title = field.title;
  if (field.description !== undefined) schema.description = field.description;
  if (field.examples !== undefined) schema.examples = [...field.examples];
  if (field.deprecated) schema.deprecated = true;
  if (field.format !== undefined) {
    schema.type ??= 'string';
    schema.format = field.format;
  }
  if (field.oneOf !== undefined) applyTitledValues(schema, field.oneOf);
  if (field.enumNames !== undefined) schema.enumNames = [...field.enumNames];
  if (field.header !== undefined) schema['x-mcp-header'] = field.header;
}

/**
 * Turns the allowed values into titled choices: `oneOf` on a single value, `items.anyOf` on an
 * array (the MCP spec's titled multi select). Values come from `@IsIn`/`@IsEnum` when present,
 * else from the `@Field` titles themselves; a value without a title is its own title.
 */
function applyTitledValues(schema: JsonSchema, titled: TitledValues): void {
  const given = toOptions(titled);
  const titles = new Map(given.map((o) => [String(o.const), o.title]));
  const isArray = schema.type === 'array';
  const holder: JsonSchema = isArray ? ((schema.items as JsonSchema | undefined) ?? {}) : schema;
  const values: unknown[] = Array.isArray(holder.enum) ? holder.enum : given.map((o) => o.const);
  const options = values.map((value) => ({ const: value, title: titles.get(String(value)) ?? String(value) }));

  if (isArray) {
    schema.items = { anyOf: options };
    return;
  }
  delete schema.enum;
  if (values.every((v) => typeof v === 'string')) schema.type ??= 'string';
  schema.oneOf = options;
}

/** Both spellings of titled values (`{ eco: 'Economy' }` or `[{ const, title }]`) as one list. */
export function toOptions(titled: TitledValues): TitledOption[] {
  if (Array.isArray(titled)) return titled.map((o) => ({ const: o.const, title: o.title }));
  return Object.entries(titled as Record<string, string>).map(([value, title]) => ({ const: value, title }));
}
