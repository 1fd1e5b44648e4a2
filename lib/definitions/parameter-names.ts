/**
 * The names of a class's constructor parameters, read from its source text, so that a start-up
 * error can say `parameter 1 (mailer)` rather than only `parameter 1`. Best effort: a name that is
 * not a plain identifier (destructuring, minified or native code) is left `undefined`. A class
 * without its own constructor takes its parent's.
 */
export function constructorParameterNames(cls: Function): (string | undefined)[] {
  for (let current: unknown = cls; typeof current === 'function' && current !== Function.prototype; current = Object.getPrototypeOf(current)) {
    const list = ownParameterList(Function.prototype.toString.call(current));
    if (list !== undefined) return splitTopLevel(list).map(nameOf);
  }
  return [];
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

function nameOf(parameter: string): string | undefined {
  const name = parameter.replace(/^\.\.\./, '').split('=')[0].trim();
  return IDENTIFIER.test(name) ? name : undefined;
}

/** The text between the parentheses of the class body's `constructor(...)`, if it has one. */
function ownParameterList(source: string): string | undefined {
  if (!source.startsWith('class')) return undefined;
  const body = source.indexOf('{');
  const match = /(?:^|[\s;}])constructor\s*\(/.exec(source.slice(body + 1));
  if (!match) return undefined;
  const open = body + 1 + match.index + match[0].length;
  let depth = 1;
  for (let i = open; i < source.length; i += 1) {
    if ('([{'.includes(source[i])) depth += 1;
    else if (')]}'.includes(source[i])) depth -= 1;
    if (depth === 0) return source.slice(open, i);
  }
  return undefined;
}

/** Splits on the commas that are not inside brackets (default values may hold calls and literals). */
function splitTopLevel(list: string): string[] {
  if (list.trim() === '') return [];
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < list.length; i += 1) {
    if ('([{'.includes(list[i])) depth += 1;
    else if (')]}'.includes(list[i])) depth -= 1;
    else if (list[i] === ',' && depth === 0) {
      parts.push(list.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(list.slice(start));
  return parts;
}
