import { CommandError } from '../command';
import type { Merged, ServerChange } from './config-change';

type JsonObject = Record<string, unknown>;

/**
 * The file's text with the server added, or put in place of the one of that name: every other key,
 * server and input is kept, in its order, and the file's indentation and line ends are kept.
 * `text` is `undefined` for a file that does not exist yet. A file that is not plain JSON (comments
 * or trailing commas, as VS Code and Cursor allow, or broken) is refused: rewriting it would drop
 * what JSON cannot hold.
 */
export function mergeJson(text: string | undefined, file: string, change: ServerChange): Merged {
  const root = parsed(text, file);
  const servers = root[change.key] ?? {};
  if (!isObject(servers)) throw new CommandError(`${file}: "${change.key}" is not an object; fix the file first`);
  const replaced = Object.hasOwn(servers, change.name);
  put(servers, change.name, change.entry);
  put(root, change.key, servers);
  if (change.inputs.length) {
    const inputs = root.inputs ?? [];
    if (!Array.isArray(inputs)) throw new CommandError(`${file}: "inputs" is not an array; fix the file first`);
    const ours = new Set(change.inputs.map((input) => input.id));
    put(root, 'inputs', [...inputs.filter((input) => !(isObject(input) && ours.has(input.id as string))), ...change.inputs]);
  }
  return { text: written(root, text), replaced };
}

function parsed(text: string | undefined, file: string): JsonObject {
  if (text === undefined || text.trim() === '') return {};
  const extra = notJson(text);
  if (extra) throw new CommandError(`${file} has ${extra}, which JSON cannot hold: phantom-mcp will not rewrite it and lose them; add the entry by hand (phantom-mcp config prints it)`);
  let root: unknown;
  try {
    root = JSON.parse(text);
  } catch (error) {
    throw new CommandError(`${file} is not valid JSON (${(error as Error).message}); fix it, or give another file with --file`);
  }
  if (!isObject(root)) throw new CommandError(`${file} does not hold a JSON object; fix it, or give another file with --file`);
  const unsafe = unsafeNumber(text);
  if (unsafe) throw new CommandError(`${file} holds the number ${unsafe}, which would change when rewritten (beyond JavaScript's exact integers); add the entry by hand`);
  return root;
}

/** Sets a key as an own property, even `__proto__`, keeping its place when it exists. */
function put(target: JsonObject, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The document in the original's indentation and line ends, ending with a line end as it did (or as a new file does). */
function written(root: JsonObject, original: string | undefined): string {
  const indent = /^[ \t]+(?=")/m.exec(original ?? '')?.[0] ?? '  ';
  const eol = original?.includes('\r\n') ? '\r\n' : '\n';
  const ends = original === undefined || original.trim() === '' || /\r?\n$/.test(original);
  const body = JSON.stringify(root, null, indent).replace(/\n/g, eol);
  return ends ? `${body}${eol}` : body;
}

/**
 * What in the text JSON.parse would not keep: `comments`, `trailing commas`, or `undefined` when
 * it has neither (it may still be broken: JSON.parse says how). Strings are skipped, so `//` in a
 * URL is no comment.
 */
function notJson(text: string): string | undefined {
  for (let at = 0; at < text.length; at++) {
    const char = text[at];
    if (char === '"') at = stringEnd(text, at);
    else if (char === '/' && (text[at + 1] === '/' || text[at + 1] === '*')) return 'comments';
    else if (char === ',' && followedBy(CLOSING, text, at + 1)) return 'trailing commas';
  }
  return undefined;
}

/** The index of the quote closing the string opened at `start` (the end of the text when unclosed). */
function stringEnd(text: string, start: number): number {
  for (let at = start + 1; at < text.length; at++) {
    if (text[at] === '\\') at++;
    else if (text[at] === '"') return at;
  }
  return text.length;
}

/** Blanks, then a closing bracket: after a comma, a trailing one. */
const CLOSING = /\s*[}\]]/y;
/** An integer (no fraction, no exponent). */
const INTEGER = /-?\d+(?![.eE\d])/y;

function followedBy(pattern: RegExp, text: string, at: number): boolean {
  pattern.lastIndex = at;
  return pattern.test(text);
}

/** An integer literal outside strings that a JavaScript number cannot hold exactly, if there is one. */
function unsafeNumber(text: string): string | undefined {
  for (let at = 0; at < text.length; at++) {
    if (text[at] === '"') {
      at = stringEnd(text, at);
      continue;
    }
    if (!/[\s,:[]/.test(text[at - 1] ?? ' ')) continue;
    INTEGER.lastIndex = at;
    const number = INTEGER.exec(text)?.[0];
    if (number === undefined) continue;
    if (!Number.isSafeInteger(Number(number))) return number;
    at += number.length - 1;
  }
  return undefined;
}

/** The JSON to merge by hand: the servers key holding this one server, and its inputs. */
export function jsonSnippet(change: ServerChange): string {
  return `${JSON.stringify({ [change.key]: { [change.name]: change.entry }, ...(change.inputs.length ? { inputs: change.inputs } : {}) }, null, 2)}\n`;
}
