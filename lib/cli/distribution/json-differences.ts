/**
 * How a committed JSON document differs from the one the code makes now, one line each, for a
 * reader: `tools["alerts"]: new`, `version: "1.0.0" -> "1.1.0"`, `user_config.units: gone`.
 * Lists of named objects (tools, prompts) are matched by `name`, so one new tool is one line
 * rather than a shifted list. Empty when they are the same.
 */
export function jsonDifferences(committed: unknown, now: unknown, path = ''): string[] {
  if (JSON.stringify(committed) === JSON.stringify(now)) return [];
  if (namedList(committed) && namedList(now)) return listDifferences(committed, now, path);
  if (plainObject(committed) && plainObject(now)) {
    const keys = [...new Set([...Object.keys(committed), ...Object.keys(now)])];
    return keys.flatMap((key) => {
      const at = path === '' ? key : `${path}.${key}`;
      if (!Object.hasOwn(now, key)) return [`${at}: gone (was ${shown(committed[key])})`];
      if (!Object.hasOwn(committed, key)) return [`${at}: new (${shown(now[key])})`];
      return jsonDifferences(committed[key], now[key], at);
    });
  }
  return [`${path || '(the document)'}: ${shown(committed)} -> ${shown(now)}`];
}

type Named = { readonly name: string } & Record<string, unknown>;

function listDifferences(committed: readonly Named[], now: readonly Named[], path: string): string[] {
  const before = new Map(committed.map((item) => [item.name, item]));
  const after = new Map(now.map((item) => [item.name, item]));
  const lines: string[] = [];
  for (const [name, item] of before) {
    const at = `${path}[${JSON.stringify(name)}]`;
    const current = after.get(name);
    lines.push(...(current === undefined ? [`${at}: gone`] : jsonDifferences(item, current, at)));
  }
  for (const name of after.keys()) if (!before.has(name)) lines.push(`${path}[${JSON.stringify(name)}]: new`);
  if (lines.length === 0) lines.push(`${path}: the same items in another order (${now.map((item) => item.name).join(', ')})`);
  return lines;
}

/** A list of objects each with a distinct string `name`. */
function namedList(value: unknown): value is Named[] {
  if (!Array.isArray(value)) return false;
  const names = value.map((item) => (plainObject(item) && typeof item.name === 'string' ? item.name : undefined));
  return names.every((name) => name !== undefined) && new Set(names).size === names.length;
}

function plainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A value, shortened past 80 characters. */
function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
