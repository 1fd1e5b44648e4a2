import type { JsonObject } from '../index';

/**
 * A tool's input schema in a line per property: `name: type (required)`, with its description.
 * Types are summarised (`string`, `integer[]`, `"a" | "b"`, `object`); the whole schema is in `--json`.
 */
export function schemaSummary(schema: JsonObject): string[] {
  const properties = (schema.properties ?? {}) as Record<string, JsonObject>;
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  const names = Object.keys(properties);
  if (names.length === 0) return ['(no arguments)'];
  return names.map((name) => {
    const property = properties[name];
    const description = typeof property.description === 'string' ? ` - ${property.description}` : '';
    return `${name}: ${typeOf(property)}${required.has(name) ? ' (required)' : ''}${description}`;
  });
}

function typeOf(schema: JsonObject): string {
  if (Array.isArray(schema.enum)) return schema.enum.map((value) => JSON.stringify(value)).join(' | ');
  if ('const' in schema) return JSON.stringify(schema.const);
  const variants = (schema.anyOf ?? schema.oneOf) as JsonObject[] | undefined;
  if (Array.isArray(variants)) return variants.map(typeOf).join(' | ');
  const type = Array.isArray(schema.type) ? schema.type.join(' | ') : typeof schema.type === 'string' ? schema.type : 'any';
  if (type === 'array' && typeof schema.items === 'object' && schema.items !== null) return `${typeOf(schema.items as JsonObject)}[]`;
  return type;
}
