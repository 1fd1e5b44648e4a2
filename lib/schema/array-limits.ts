import type { JsonSchema } from './json-schema.types';

/** `maxArrayItems`' default: items one array in a call's arguments may hold. */
export const DEFAULT_MAX_ARRAY_ITEMS = 1_000;

/** How many array items a call's arguments may hold in all, nested ones included: ten arrays at the limit. */
export const TOTAL_ITEMS_PER_LIMIT = 10;

/**
 * The arrays in `value` longer than `max`, one issue each, named by their path (`tags`,
 * `orders[2].lines`). Checked before any validation runs: validating a nested DTO costs
 * microseconds per item, and one call with 100,000 of them would hold the event loop for a
 * second while every other session waits. An array over the limit is refused without looking
 * inside it; nested arrays are each held to the limit, and all of them together to ten times it,
 * so one call's validation is bounded whatever the nesting.
 */
export function oversizeArrays(value: unknown, max: number): readonly string[] {
  if (isShallowWithin(value, max)) return NONE;
  const count = { items: 0, total: max * TOTAL_ITEMS_PER_LIMIT };
  const issues: string[] = [];
  walk(value, max, '', count, issues);
  if (count.items > count.total) issues.push(`arguments: must contain at most ${count.total} array items in all, nested ones included (got more)`);
  return issues;
}

const NONE: readonly string[] = Object.freeze([]);

/**
 * An object whose values are scalars, or arrays of scalars within the limits (most calls'
 * arguments, a list of tags included): nothing to report, and nothing to walk or allocate.
 */
function isShallowWithin(value: unknown, max: number): boolean {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  let items = 0;
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const item = (value as Record<string, unknown>)[key];
    if (item === null || typeof item !== 'object') continue;
    if (!Array.isArray(item) || item.length > max || !holdsOnlyScalars(item)) return false;
    items += item.length;
  }
  return items <= max * TOTAL_ITEMS_PER_LIMIT;
}

/**
 * `isShallowWithin` for the copy of `value` that keeps only `keys`, without making it: whether
 * each of those own properties is a scalar or an array of scalars within the limits.
 */
export function declaredWithinLimits(value: Readonly<Record<string, unknown>>, keys: readonly string[], max: number): boolean {
  let items = 0;
  for (const key of keys) {
    if (!Object.hasOwn(value, key)) continue;
    const item = value[key];
    if (item === null || typeof item !== 'object') continue;
    if (!Array.isArray(item) || item.length > max || !holdsOnlyScalars(item)) return false;
    items += item.length;
  }
  return items <= max * TOTAL_ITEMS_PER_LIMIT;
}

function holdsOnlyScalars(items: readonly unknown[]): boolean {
  for (let index = 0; index < items.length; index += 1) {
    const item: unknown = items[index];
    if (item !== null && typeof item === 'object') return false;
  }
  return true;
}

/**
 * Adds the issues of `value`'s arrays to `issues`; stops counting (and looking) once the total is
 * past. Allocates nothing for arguments with no array: it runs on every call.
 */
function walk(value: unknown, max: number, path: string, count: { items: number; total: number }, issues: string[]): void {
  if (value === null || typeof value !== 'object' || count.items > count.total) return;
  if (Array.isArray(value)) {
    if (value.length > max) {
      issues.push(`${path || 'arguments'}: must contain at most ${max} items (got ${value.length})`);
      return;
    }
    count.items += value.length;
    for (let index = 0; index < value.length; index += 1) {
      const item: unknown = value[index];
      if (item !== null && typeof item === 'object') walk(item, max, `${path}[${index}]`, count, issues);
    }
    return;
  }
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const item = (value as Record<string, unknown>)[key];
    if (item !== null && typeof item === 'object') walk(item, max, path ? `${path}.${key}` : key, count, issues);
  }
}

/**
 * `schema` with `maxItems: max` on every array schema that gives none (in properties, items,
 * `$defs` and the combinators): what a client sees is what the server enforces. The same object
 * when there is nothing to add.
 */
export function withMaxItems(schema: JsonSchema, max: number): JsonSchema {
  let changed = false;
  const copy: JsonSchema = {};
  for (const [keyword, sub] of Object.entries(schema)) {
    const limited = limitedSub(keyword, sub, max);
    if (limited !== sub) changed = true;
    copy[keyword] = limited;
  }
  if (isArraySchema(schema) && schema.maxItems === undefined) {
    copy.maxItems = max;
    changed = true;
  }
  return changed ? copy : schema;
}

/** Keywords whose value is a schema, or a list or map of schemas. */
const ONE = new Set(['items', 'additionalProperties', 'not', 'contains']);
const LIST = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems']);
const MAP = new Set(['properties', '$defs', 'definitions', 'patternProperties']);

function limitedSub(keyword: string, sub: unknown, max: number): unknown {
  if (ONE.has(keyword) && isSchema(sub)) return withMaxItems(sub, max);
  if (LIST.has(keyword) && Array.isArray(sub)) {
    const limited = sub.map((s) => (isSchema(s) ? withMaxItems(s, max) : s));
    return limited.some((s, i) => s !== sub[i]) ? limited : sub;
  }
  if (MAP.has(keyword) && isSchema(sub)) {
    const entries = Object.entries(sub).map(([name, s]) => [name, isSchema(s) ? withMaxItems(s, max) : s] as const);
    return entries.some(([name, s]) => s !== sub[name]) ? Object.fromEntries(entries) : sub;
  }
  return sub;
}

function isSchema(value: unknown): value is JsonSchema {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function isArraySchema(schema: JsonSchema): boolean {
  return schema.type === 'array' || (Array.isArray(schema.type) && schema.type.includes('array'));
}
