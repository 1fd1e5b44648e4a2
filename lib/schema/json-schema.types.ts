/** A JSON Schema (2020-12) node: keywords to values. Kept loose on purpose; we only ever build it. */
export type JsonSchema = { [keyword: string]: unknown };

/** The outcome of validating untrusted input: a value to use, or one line per failing property. */
export type Validated<T> = { ok: true; value: T } | { ok: false; issues: string[] };

/**
 * Freezes a schema and everything in it. Compiled schemas are cached and shared between callers,
 * so a caller that mutated one would silently change every later tools/list answer.
 */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    // Most values are strings and numbers: skip the call for them (start-up freezes a schema per tool).
    for (const child of Object.values(value)) if (child !== null && typeof child === 'object') deepFreeze(child);
  }
  return value;
}


/** `array`, `null` or the `typeof`: how an issue line names what it got instead of an object. */
export function describeKind(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'array' : typeof value;
}

/** A copy a caller may keep; values `structuredClone` cannot copy (functions) are shared as they are. */
export function cloneValue<T>(value: T): T {
  try {
    return structuredClone(value);
  } catch {
    return value;
  }
}
