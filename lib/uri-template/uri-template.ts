import { PhantomError } from '../core/errors';

/** A value bound to a template variable: a string, or a list for exploded or list variables. */
export type TemplateValue = string | string[];

/** Variable name -> value, as produced by matching and consumed by expansion. */
export type TemplateParams = Record<string, TemplateValue>;

/** The RFC 6570 operators we support: levels 1 to 3 (`;` included). */
export type TemplateOperator = '' | '+' | '#' | '.' | '/' | ';' | '?' | '&';

/** One variable in an expression: `name`, `name*` (explode) or `name:3` (prefix). */
export interface VarSpec {
  readonly name: string;
  readonly explode: boolean;
  /** maximum number of characters to expand; matching ignores it */
  readonly prefix?: number;
}

/** One `{...}` expression: its operator and variables. */
export interface TemplateExpression {
  readonly kind: 'expression';
  readonly op: TemplateOperator;
  readonly vars: readonly VarSpec[];
}

/** A parsed piece of a template: literal text or one expression. */
export type TemplatePart = { readonly kind: 'literal'; readonly text: string } | TemplateExpression;

/**
 * A parsed RFC 6570 URI template, as declared by a `@Resource({ uri })`.
 *
 * @example
 * const template = parseUriTemplate('https://api.example.com/users/{id}{?fields}');
 * template.variables;                                 // ['id', 'fields']
 * template.expand({ id: '42', fields: ['a', 'b'] });  // 'https://api.example.com/users/42?fields=a,b'
 */
export interface UriTemplate {
  readonly source: string;
  /** variable names in order of appearance */
  readonly variables: readonly string[];
  /** true when the source has at least one {expression} */
  readonly isTemplate: boolean;
  /** RFC 6570 expansion (levels 1-3 + explode), used for resource links and tests */
  expand(params: Partial<TemplateParams>): string;
}

/**
 * Parses a URI template, rejecting anything malformed with one `PhantomError('uri_template_invalid')`
 * that names the template and the problem. Beyond RFC 6570 syntax, two things are rejected because
 * a template could not be matched back to one set of params: a variable used twice, and a query
 * expression (`{?..}` / `{&..}`) followed by anything but more query expressions or a final `{#..}`.
 *
 * @example
 * parseUriTemplate('file:///{+path}').variables;  // ['path']
 * parseUriTemplate('x://{id');                     // throws: unclosed '{' at position 4
 */
export function parseUriTemplate(source: string): UriTemplate {
  const parts = parseTemplateParts(source);
  const variables = Object.freeze(parts.flatMap((p) => (p.kind === 'expression' ? p.vars.map((v) => v.name) : [])));
  return Object.freeze({
    source,
    variables,
    isTemplate: parts.some((p) => p.kind === 'expression'),
    expand: (params: Partial<TemplateParams>) => expandParts(parts, params),
  });
}

const OPERATORS = new Set<string>(['+', '#', '.', '/', ';', '?', '&']);
/** RFC 6570 section 2.2 keeps these for future extensions, so they are errors, not literals. */
const RESERVED_OPERATORS = new Set<string>(['=', ',', '!', '@', '|']);
const VAR_NAME = /^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})(?:\.?(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2}))*$/;
const PREFIX = /^[1-9][0-9]{0,3}$/;

/**
 * The parser behind `parseUriTemplate`, exported for the matcher, which compiles the parts.
 * @internal
 */
export function parseTemplateParts(source: string): readonly TemplatePart[] {
  const fail = (problem: string): never => {
    throw new PhantomError('uri_template_invalid', `Invalid URI template "${source}": ${problem}`);
  };
  const parts: TemplatePart[] = [];
  const seen = new Set<string>();
  let literal = '';
  for (let i = 0; i < source.length; i++) {
    const char = source[i];
    if (char === '}') fail(`'}' at position ${i} closes no expression`);
    if (char !== '{') {
      literal += char;
      continue;
    }
    const close = source.indexOf('}', i + 1);
    const nested = source.indexOf('{', i + 1);
    if (close < 0) fail(`unclosed '{' at position ${i}`);
    if (nested >= 0 && nested < close) fail(`'{' at position ${nested} opens inside the expression at position ${i}`);
    if (literal) parts.push({ kind: 'literal', text: literal });
    literal = '';
    parts.push(parseExpression(source.slice(i + 1, close), i, seen, fail));
    i = close;
  }
  if (literal) parts.push({ kind: 'literal', text: literal });
  checkQueryAtEnd(parts, fail);
  return Object.freeze(parts);
}

function parseExpression(body: string, at: number, seen: Set<string>, fail: (problem: string) => never): TemplatePart {
  if (body === '') fail(`empty expression at position ${at}`);
  if (RESERVED_OPERATORS.has(body[0])) fail(`operator '${body[0]}' at position ${at} is reserved by RFC 6570 and not supported`);
  const op = (OPERATORS.has(body[0]) ? body[0] : '') as TemplateOperator;
  const vars = body.slice(op.length).split(',').map((spec): VarSpec => {
    const explode = spec.endsWith('*');
    const [name, prefix, ...extra] = (explode ? spec.slice(0, -1) : spec).split(':');
    if (!VAR_NAME.test(name)) fail(`bad variable name "${name}" in {${body}} (letters, digits, '_', '.', %XX)`);
    if (seen.has(name)) fail(`variable "${name}" appears more than once, so a match could not bind it`);
    seen.add(name);
    if (extra.length > 0 || (prefix !== undefined && (explode || !PREFIX.test(prefix)))) {
      fail(`bad modifier on "${name}" in {${body}} (use name* or name:1 to name:9999)`);
    }
    return prefix === undefined ? { name, explode } : { name, explode, prefix: Number(prefix) };
  });
  return { kind: 'expression', op, vars };
}

/** Query parameters match in any order, which only works when they are the template's tail. */
function checkQueryAtEnd(parts: readonly TemplatePart[], fail: (problem: string) => never): void {
  const first = parts.findIndex((p) => p.kind === 'expression' && (p.op === '?' || p.op === '&'));
  if (first < 0) return;
  parts.slice(first).forEach((part, offset) => {
    const isQuery = part.kind === 'expression' && (part.op === '?' || part.op === '&');
    const isLastFragment = part.kind === 'expression' && part.op === '#' && first + offset === parts.length - 1;
    if (!isQuery && !isLastFragment) {
      fail('a query expression ({?..} or {&..}) may be followed only by more query expressions and a final {#..}');
    }
  });
}

interface OperatorRule {
  readonly first: string;
  readonly sep: string;
  readonly named: boolean;
  readonly ifEmpty: string;
  readonly reserved: boolean;
}

/** The expansion table of RFC 6570 appendix A; matching reads it backwards. */
const OPERATOR_RULES: Readonly<Record<TemplateOperator, OperatorRule>> = Object.freeze({
  '': { first: '', sep: ',', named: false, ifEmpty: '', reserved: false },
  '+': { first: '', sep: ',', named: false, ifEmpty: '', reserved: true },
  '#': { first: '#', sep: ',', named: false, ifEmpty: '', reserved: true },
  '.': { first: '.', sep: '.', named: false, ifEmpty: '', reserved: false },
  '/': { first: '/', sep: '/', named: false, ifEmpty: '', reserved: false },
  ';': { first: ';', sep: ';', named: true, ifEmpty: '', reserved: false },
  '?': { first: '?', sep: '&', named: true, ifEmpty: '=', reserved: false },
  '&': { first: '&', sep: '&', named: true, ifEmpty: '=', reserved: false },
});

function expandParts(parts: readonly TemplatePart[], params: Partial<TemplateParams>): string {
  return parts.map((part) => (part.kind === 'literal' ? part.text : expandExpression(part.op, part.vars, params))).join('');
}

function expandExpression(op: TemplateOperator, vars: readonly VarSpec[], params: Partial<TemplateParams>): string {
  const rule = OPERATOR_RULES[op];
  const enc = (value: string) => encode(value, rule.reserved);
  const named = (name: string, value: string) => (value === '' ? name + rule.ifEmpty : `${name}=${value}`);
  const pieces: string[] = [];
  for (const v of vars) {
    const value = Object.hasOwn(params, v.name) ? params[v.name] : undefined;
    // Undefined and empty lists are "undefined" in RFC terms: the variable is skipped.
    if (value === undefined || (Array.isArray(value) && value.length === 0)) continue;
    if (!Array.isArray(value)) {
      // String() because links are often expanded from untyped data (a number id, say).
      const whole = String(value);
      const text = enc(v.prefix === undefined ? whole : Array.from(whole).slice(0, v.prefix).join(''));
      pieces.push(rule.named ? named(v.name, text) : text);
    } else if (v.explode) {
      pieces.push(value.map((item) => (rule.named ? named(v.name, enc(item)) : enc(item))).join(rule.sep));
    } else {
      const joined = value.map(enc).join(',');
      pieces.push(rule.named ? named(v.name, joined) : joined);
    }
  }
  return pieces.length === 0 ? '' : rule.first + pieces.join(rule.sep);
}

const UNRESERVED = /[A-Za-z0-9\-._~]/;
const RESERVED = /[:/?#[\]@!$&'()*+,;=]/;
const utf8 = new TextEncoder();

/** Percent-encodes all but unreserved characters (plus reserved ones and %XX triplets for `+`/`#`). */
function encode(value: string, allowReserved: boolean): string {
  let out = '';
  for (let i = 0; i < value.length; ) {
    const char = String.fromCodePoint(value.codePointAt(i)!);
    if (allowReserved && char === '%' && /^%[0-9A-Fa-f]{2}/.test(value.slice(i, i + 3))) {
      out += value.slice(i, i + 3);
      i += 3;
      continue;
    }
    if (UNRESERVED.test(char) || (allowReserved && RESERVED.test(char))) out += char;
    else for (const byte of utf8.encode(char)) out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
    i += char.length;
  }
  return out;
}

/**
 * The inverse of expansion for one expression: binds the variables found in `text`, the exact URI
 * text the expression matched (prefix characters included). Variables are assigned in order, so
 * `{x,y}` on "a" binds only x. Returns false when `{;..}` names do not fit the template.
 * @internal
 */
export function bindExpression(expr: TemplateExpression, text: string, params: TemplateParams): boolean {
  if (text === '') return true;
  const rule = OPERATOR_RULES[expr.op];
  const pieces = text.slice(rule.first.length).split(rule.sep);
  if (rule.named) return bindNamed(expr.vars, pieces, params);
  let at = 0;
  expr.vars.forEach((v, j) => {
    if (at >= pieces.length) return;
    const later = expr.vars.length - j - 1;
    // A list joined by ',' is one value to a non-exploded variable, so the last one takes the rest.
    const take = v.explode ? Math.max(1, pieces.length - at - later) : later === 0 && rule.sep === ',' ? pieces.length - at : 1;
    const taken = pieces.slice(at, at + take);
    setParam(params, v.name, v.explode ? taken.map(percentDecode) : percentDecode(taken.join(',')));
    at += take;
  });
  return true;
}

/** `{;x,y}` parts are `name` or `name=value`, in template order, each variable optional. */
function bindNamed(vars: readonly VarSpec[], pieces: readonly string[], params: TemplateParams): boolean {
  let at = 0;
  for (const v of vars) {
    const values: string[] = [];
    while (at < pieces.length && (v.explode || values.length === 0)) {
      const eq = pieces[at].indexOf('=');
      if ((eq < 0 ? pieces[at] : pieces[at].slice(0, eq)) !== v.name) break;
      values.push(eq < 0 ? '' : percentDecode(pieces[at].slice(eq + 1)));
      at++;
    }
    if (values.length > 0) setParam(params, v.name, v.explode ? values : values[0]);
  }
  return at === pieces.length;
}

/**
 * Defines an own property, so variables named `__proto__` or `constructor` bind like any other.
 * @internal
 */
export function setParam(params: TemplateParams, name: string, value: TemplateValue): void {
  Object.defineProperty(params, name, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * Decodes %XX escapes; a value with a malformed escape (`100%`, `%zz`, bad UTF-8) is returned
 * exactly as written, because failing the match would hide the resource from a sloppy client.
 * @internal
 */
export function percentDecode(text: string): string {
  if (!text.includes('%')) return text;
  // Checked first because a thrown URIError per value is slow on hostile input.
  if (/%(?![0-9A-Fa-f]{2})/.test(text)) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
