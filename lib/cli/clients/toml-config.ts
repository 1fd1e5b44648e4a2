import { CommandError } from '../command';
import type { Merged, ServerChange } from './config-change';


/**
 * The TOML text of a table at `path`: its strings and string arrays, then each nested object as a
 * sub-table (`[mcp_servers.weather.env]`). Enough TOML for a server's entry, and no more.
 */
export function tomlTable(path: readonly string[], table: Readonly<Record<string, unknown>>, eol = '\n'): string {
  const values = Object.entries(table).filter(([, value]) => !isTable(value));
  const tables = Object.entries(table).filter(([, value]) => isTable(value)) as [string, Record<string, unknown>][];
  const lines = [`[${path.map(tomlKey).join('.')}]`, ...values.map(([key, value]) => `${tomlKey(key)} = ${tomlValue(value)}`)];
  return [lines.join(eol), ...tables.map(([key, value]) => tomlTable([...path, key], value, eol).trimEnd())].join(`${eol}${eol}`) + eol;
}

/**
 * The file's text with `[<key>.<name>]` (and its sub-tables) written in place of the ones there, or
 * added at the end; every other line is kept as it was, comments included. Refused when the server
 * is defined in a form this does not rewrite (dotted keys, an inline table): said, to edit by hand.
 */
export function mergeToml(text: string | undefined, file: string, change: ServerChange): Merged {
  const original = text ?? '';
  const eol = original.includes('\r\n') ? '\r\n' : '\n';
  const ours = [change.key, change.name];
  const lines = statements(original);
  const removed: [number, number][] = [];
  let table: readonly string[] = [];
  let removing = false;
  for (const line of lines) {
    if (line.header) {
      if (line.header.array && line.header.path[0] === change.key) throw refusal(file, change, `an array of tables [[${line.header.path.join('.')}]]`);
      table = line.header.path;
      removing = startsWith(table, ours);
      if (removing) removed.push([line.start, line.end]);
      continue;
    }
    if (removing) {
      removed[removed.length - 1][1] = line.end;
      continue;
    }
    if (!line.key) continue;
    const full = [...table, ...line.key];
    if (full.length === 1 && full[0] === change.key) throw refusal(file, change, `"${change.key}" as an inline table`);
    if (startsWith(full, ours)) throw refusal(file, change, `"${change.name}" in dotted keys or an inline table`);
  }
  const block = tomlTable(ours, change.entry, eol);
  if (removed.length === 0) {
    const base = original === '' || /\n$/.test(original) ? original : `${original}${eol}`;
    return { text: `${base}${base.trim() === '' ? '' : eol}${block}`, replaced: false };
  }
  let result = '';
  let from = 0;
  for (const [at, [start, end]] of removed.entries()) {
    result += original.slice(from, start);
    if (at === 0) result += end < original.length ? `${block}${eol}` : block;
    from = end;
  }
  // The old table ran to the end: one line end closes the file, not the blank lines between its sub-tables.
  const merged = from === original.length ? result.replace(/(?:\r?\n)+$/, eol) : result + original.slice(from);
  return { text: merged, replaced: true };
}

function refusal(file: string, change: ServerChange, form: string): CommandError {
  return new CommandError(`${file} defines ${form}, which phantom-mcp does not rewrite: replace it by hand with the [${change.key}.${tomlKey(change.name)}] table phantom-mcp config prints`);
}

function startsWith(path: readonly string[], prefix: readonly string[]): boolean {
  return prefix.every((part, at) => path[at] === part);
}

function isTable(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A key, bare when it can be (letters, digits, `_`, `-`), else quoted. */
export function tomlKey(key: string): string {
  return /^[A-Za-z0-9_-]+$/.test(key) ? key : tomlString(key);
}

function tomlValue(value: unknown): string {
  if (typeof value === 'string') return tomlString(value);
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return `[${value.map(tomlString).join(', ')}]`;
  throw new TypeError(`no TOML written for ${JSON.stringify(value)}: strings and string arrays only`);
}

const ESCAPES: Readonly<Record<string, string>> = { '"': '\\"', '\\': '\\\\', '\b': '\\b', '\t': '\\t', '\n': '\\n', '\f': '\\f', '\r': '\\r' };

/** A TOML basic string: quotes, backslashes and control characters escaped. */
export function tomlString(text: string): string {
  // eslint-disable-next-line no-control-regex
  return `"${text.replace(/["\\\u0000-\u001f\u007f]/g, (char) => ESCAPES[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)}"`;
}

/** A line of the file that starts outside a multi-line string: where it is, and the table header or key it starts with. */
interface Statement {
  readonly start: number;
  /** Just after its line end (or the end of the text). */
  readonly end: number;
  readonly header?: { readonly path: readonly string[]; readonly array: boolean };
  readonly key?: readonly string[];
}

/**
 * The file's lines, each read for a table header (`[a."b"]`, `[[a]]`) or a key (`a.b =`); a line
 * inside a multi-line string is part of the line the string started on.
 */
function statements(text: string): Statement[] {
  const found: Statement[] = [];
  let start = 0;
  while (start < text.length) {
    const end = lineEnd(text, start);
    found.push({ start, end, ...read(text.slice(start, end)) });
    start = end;
  }
  return found;
}

/**
 * The end of the statement starting at `start`: its line, or more when a multi-line string or an
 * array of the value (`args = [` ... `]`) goes on past it.
 */
function lineEnd(text: string, start: number): number {
  let value = false;
  let depth = 0;
  for (let at = start; at < text.length; at++) {
    const char = text[at];
    if (char === '#') {
      const newline = text.indexOf('\n', at);
      if (newline === -1) return text.length;
      at = newline - 1;
    } else if (char === '\n') {
      if (depth <= 0) return at + 1;
    } else if (char === '"' || char === '\'') {
      const triple = text.startsWith(char.repeat(3), at);
      at = triple ? closing(text, at + 3, char.repeat(3), char === '"') : closing(text, at + 1, char, char === '"');
    } else if (char === '=' && depth === 0) {
      value = true;
    } else if (value && (char === '[' || char === '{')) {
      depth++;
    } else if (value && (char === ']' || char === '}')) {
      depth--;
    }
  }
  return text.length;
}

/** The index of the last character of `quote` closing a string whose content starts at `from`. */
function closing(text: string, from: number, quote: string, escapes: boolean): number {
  for (let at = from; at < text.length; at++) {
    if (escapes && text[at] === '\\') at++;
    else if (text.startsWith(quote, at)) return at + quote.length - 1;
    else if (quote.length === 1 && text[at] === '\n') return at - 1;
  }
  return text.length;
}

function read(line: string): Omit<Statement, 'start' | 'end'> {
  const header = /^\s*(\[\[?)/.exec(line);
  if (header) {
    const keys = keyPath(line, header[0].length);
    const close = header[1] === '[[' ? ']]' : ']';
    return keys && line.startsWith(close, keys.end) ? { header: { path: keys.path, array: close === ']]' } } : {};
  }
  const keys = keyPath(line, 0);
  return keys && line[keys.end] === '=' ? { key: keys.path } : {};
}

/** A dotted key from `at` (blanks around its parts allowed), decoded, and where it ends (past trailing blanks). */
function keyPath(line: string, at: number): { path: string[]; end: number } | undefined {
  const path: string[] = [];
  let position = at;
  for (;;) {
    position = skipBlanks(line, position);
    const part = /^(?:([A-Za-z0-9_-]+)|"((?:[^"\\]|\\.)*)"|'([^']*)')/.exec(line.slice(position));
    if (!part) return undefined;
    path.push(part[1] ?? part[3] ?? unescaped(part[2]));
    position = skipBlanks(line, position + part[0].length);
    if (line[position] !== '.') return { path, end: position };
    position++;
  }
}

function skipBlanks(line: string, at: number): number {
  while (line[at] === ' ' || line[at] === '\t') at++;
  return at;
}

/** A basic string's escapes decoded (`\"`, `\\`, `\n`, `\uXXXX`, ...). */
function unescaped(text: string): string {
  const simple: Record<string, string> = { b: '\b', t: '\t', n: '\n', f: '\f', r: '\r', e: '\u001b', '"': '"', '\\': '\\' };
  return text.replace(/\\(u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|.)/g, (_match, code: string) => {
    if (code.length > 1) return String.fromCodePoint(parseInt(code.slice(1), 16));
    return simple[code] ?? code;
  });
}

/** The TOML to add by hand: the server's table. */
export function tomlSnippet(change: ServerChange): string {
  return tomlTable([change.key, change.name], change.entry);
}
