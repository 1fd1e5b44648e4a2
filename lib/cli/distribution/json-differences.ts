/**
 * How the items of an array are told apart, by the array's key in its parent: `environmentVariables`
 * by `name`, so one added in the middle is one difference, not one per item after it.
 */
export type ArrayKeys = Readonly<Record<string, string>>;

/** One difference between what the code makes and what a file says. */
export interface JsonDifference {
  /** Where: `packages[npm].environmentVariables[API_KEY].isSecret`. */
  readonly path: string;
  /** What the code makes there (absent: the file has what the code does not). */
  readonly expected?: unknown;
  /** What the file has there (absent: the file lacks what the code makes). */
  readonly actual?: unknown;
}

/**
 * Every difference between two JSON values, key order ignored: objects by key, arrays by the
 * key `keys` names for them (when every item has a distinct one), else by position.
 */
export function jsonDifferences(expected: unknown, actual: unknown, keys: ArrayKeys = {}): JsonDifference[] {
  return differencesAt(expected, actual, keys, '', '');
}

/** `name`: the value's key in its parent object, which picks an array's item key. */
function differencesAt(expected: unknown, actual: unknown, keys: ArrayKeys, path: string, name: string): JsonDifference[] {
  if (isObject(expected) && isObject(actual)) {
    const names = [...new Set([...Object.keys(expected), ...Object.keys(actual)])];
    return names.flatMap((key) => {
      const at = path ? `${path}.${key}` : key;
      if (!Object.hasOwn(actual, key)) return [{ path: at, expected: expected[key] }];
      if (!Object.hasOwn(expected, key)) return [{ path: at, actual: actual[key] }];
      return differencesAt(expected[key], actual[key], keys, at, key);
    });
  }
  if (Array.isArray(expected) && Array.isArray(actual)) return arrayDifferences(expected, actual, keys, path, keys[name]);
  // Scalars, or a scalar against an object or array (never equal).
  return expected === actual ? [] : [{ path, expected, actual }];
}

/** One line for a difference, naming the file. */
export function describeDifference(difference: JsonDifference, file: string): string {
  const { path } = difference;
  if (!('actual' in difference)) return `${path}: missing from ${file}; the code makes ${brief(difference.expected)}`;
  if (!('expected' in difference)) return `${path}: in ${file} only (${brief(difference.actual)}); the code makes none`;
  return `${path}: ${brief(difference.actual)} in ${file}, ${brief(difference.expected)} from the code`;
}

function arrayDifferences(expected: unknown[], actual: unknown[], keys: ArrayKeys, path: string, field: string | undefined): JsonDifference[] {
  const expectedKeys = field === undefined ? undefined : keysOf(expected, field);
  const actualKeys = field === undefined ? undefined : keysOf(actual, field);
  if (!expectedKeys || !actualKeys) {
    const length = Math.max(expected.length, actual.length);
    return Array.from({ length }, (_, at) => {
      const where = `${path}[${at}]`;
      if (at >= actual.length) return [{ path: where, expected: expected[at] }];
      if (at >= expected.length) return [{ path: where, actual: actual[at] }];
      return differencesAt(expected[at], actual[at], keys, where, '');
    }).flat();
  }
  const byKey = new Map(actualKeys.map((key, at) => [key, actual[at]]));
  const differences = expectedKeys.flatMap((key, at) => {
    const where = `${path}[${key}]`;
    return byKey.has(key) ? differencesAt(expected[at], byKey.get(key), keys, where, '') : [{ path: where, expected: expected[at] }];
  });
  const known = new Set(expectedKeys);
  actualKeys.forEach((key, at) => { if (!known.has(key)) differences.push({ path: `${path}[${key}]`, actual: actual[at] }); });
  return differences;
}

/** Each item's key, or `undefined` when one lacks it or two share it. */
function keysOf(items: unknown[], field: string): string[] | undefined {
  const found = items.map((item) => (isObject(item) && typeof item[field] === 'string' ? item[field] : undefined));
  if (found.some((key) => key === undefined) || new Set(found).size !== found.length) return undefined;
  return found as string[];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A value in a line: JSON, cut at 80 characters. */
function brief(value: unknown): string {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
