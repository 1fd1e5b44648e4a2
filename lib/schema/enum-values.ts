/**
 * The values `@IsEnum(entity)` accepts: the elements of an array (class-validator takes one),
 * else the object's values minus the reverse mappings TypeScript adds to numeric enums
 * (`Level[0] === 'Low'`). class-validator's own list (its second constraint) drops every
 * numeric-looking key instead, which empties an array and loses keys such as `'1st'`; the
 * advertised `enum` and the error message both use this list instead.
 */
export function enumValues(entity: unknown): unknown[] | undefined {
  if (Array.isArray(entity)) return entity;
  if (entity === null || typeof entity !== 'object') return undefined;
  const record = entity as Record<string, unknown>;
  const isReverseMapping = (key: string, value: unknown): boolean =>
    typeof value === 'string' && Object.hasOwn(record, value) && typeof record[value] === 'number' && String(record[value]) === key;
  return Object.entries(record).filter(([key, value]) => !isReverseMapping(key, value)).map(([, value]) => value);
}
