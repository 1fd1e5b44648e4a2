import type { EnumChoice } from './form-elicitation';

/** The formats a form may carry, by the spelling the builder accepts. */
export const FORM_FORMATS: Readonly<Record<string, string>> = Object.freeze({
  email: 'email',
  uri: 'uri',
  date: 'date',
  'date-time': 'date-time',
  date_time: 'date-time',
});

type Checks = (p: Record<string, unknown>) => string[];

/** Per-type checks of a builder property; the type names are the keys the builder accepts. */
const PROPERTY_CHECKS: Readonly<Record<string, Checks>> = Object.freeze({
  string: (p) => [
    ...(p.format !== undefined && !Object.hasOwn(FORM_FORMATS, String(p.format))
      ? [`Invalid format in string property: ${JSON.stringify(p.format)} (allowed: email, uri, date, date-time)`]
      : []),
    ...count(p, 'minLength'),
    ...count(p, 'maxLength'),
    ...ordered(p, 'minLength', 'maxLength'),
    ...patternProblems(p.pattern),
    ...typed(p, 'default', (v) => typeof v === 'string', 'a string'),
  ],
  number: (p) => numberChecks(p, (v) => typeof v === 'number' && Number.isFinite(v), 'a number'),
  integer: (p) => numberChecks(p, Number.isInteger, 'an integer'),
  boolean: (p) => typed(p, 'default', (v) => typeof v === 'boolean', 'a boolean'),
  enum: enumChecks,
});

/**
 * Everything wrong with an `Elicit.form` spec, one line each; `[]` when it builds. Cheap checks
 * only: they catch the typos a type checker misses in untyped or spread-built specs.
 */
export function formSpecProblems(spec: { message?: unknown; requestedSchema?: unknown }): string[] {
  const problems = textProblems(spec, 'message');
  if (!Array.isArray(spec.requestedSchema)) return [...problems, 'requestedSchema must be an array of properties'];
  const seen = new Set<string>();
  spec.requestedSchema.forEach((property: unknown, i) => {
    if (property === null || typeof property !== 'object') return problems.push(`requestedSchema[${i}] must be an object`);
    const p = property as Record<string, unknown>;
    const label = typeof p.name === 'string' && p.name ? `property "${p.name}"` : `requestedSchema[${i}]`;
    const own: string[] = [];
    if (typeof p.name !== 'string' || !p.name) own.push('needs a non-empty name');
    else if (seen.has(p.name)) own.push('is declared twice');
    else seen.add(p.name);
    const checks = Object.hasOwn(PROPERTY_CHECKS, String(p.type)) ? PROPERTY_CHECKS[String(p.type)] : undefined;
    own.push(...(checks ? checks(p) : [`has unknown type ${JSON.stringify(p.type)} (string, number, integer, boolean, enum)`]));
    problems.push(...own.map((problem) => `${label}: ${problem}`));
  });
  return problems;
}

/** `Elicit.url` needs a message, an absolute URL and an id to complete the flow with. */
export function urlSpecProblems(spec: { message?: unknown; url?: unknown; elicitationId?: unknown }): string[] {
  return [
    ...textProblems(spec, 'message'),
    ...(typeof spec.url === 'string' && URL.canParse(spec.url) ? [] : ['url must be an absolute URL']),
    ...textProblems(spec, 'elicitationId'),
  ];
}

function textProblems(spec: Record<string, unknown>, key: string): string[] {
  return typeof spec[key] === 'string' && (spec[key] as string).trim() ? [] : [`${key} must be a non-empty string`];
}

function numberChecks(p: Record<string, unknown>, isValue: (v: unknown) => boolean, what: string): string[] {
  return [...typed(p, 'minimum', isValue, what), ...typed(p, 'maximum', isValue, what), ...ordered(p, 'minimum', 'maximum'), ...typed(p, 'default', isValue, what)];
}

function enumChecks(p: Record<string, unknown>): string[] {
  const choices = p.enum;
  if (!Array.isArray(choices) || !choices.length) return ['enum must be a non-empty list of values'];
  const problems = choices.some((c) => !isChoice(c)) ? ['enum entries must be strings, [value, title] pairs or { const, title }'] : [];
  problems.push(...count(p, 'min'), ...count(p, 'max'), ...ordered(p, 'min', 'max'));
  if (p.enumNames !== undefined && (p.multi || !Array.isArray(p.enumNames) || p.enumNames.length !== choices.length)) {
    problems.push('enumNames needs one name per value, on a single select');
  }
  const values = new Set(choices.filter(isChoice).map(choiceValue));
  const defaults = p.multi ? p.default : p.default === undefined ? undefined : [p.default];
  if (defaults !== undefined && !(Array.isArray(defaults) && defaults.every((d) => values.has(d)))) {
    problems.push(`default must be ${p.multi ? 'a list of' : 'one of'} the enum values`);
  }
  return problems;
}

function isChoice(c: unknown): c is EnumChoice {
  if (typeof c === 'string') return true;
  if (Array.isArray(c)) return c.length === 2 && c.every((x) => typeof x === 'string');
  return c !== null && typeof c === 'object' && typeof (c as { const?: unknown }).const === 'string' && typeof (c as { title?: unknown }).title === 'string';
}

/** The value of a choice, whichever way it was spelled. */
export function choiceValue(c: EnumChoice): string {
  return typeof c === 'string' ? c : Array.isArray(c) ? (c as readonly [string, string])[0] : (c as { const: string }).const;
}

/** The title of a choice, undefined for a bare value. */
export function choiceTitle(c: EnumChoice): string | undefined {
  return typeof c === 'string' ? undefined : Array.isArray(c) ? (c as readonly [string, string])[1] : (c as { title: string }).title;
}

function typed(p: Record<string, unknown>, key: string, ok: (v: unknown) => boolean, what: string): string[] {
  return p[key] === undefined || ok(p[key]) ? [] : [`${key} must be ${what}`];
}

function count(p: Record<string, unknown>, key: string): string[] {
  return typed(p, key, (v) => Number.isInteger(v) && (v as number) >= 0, 'a non-negative integer');
}

function ordered(p: Record<string, unknown>, low: string, high: string): string[] {
  return typeof p[low] === 'number' && typeof p[high] === 'number' && (p[low] as number) > (p[high] as number) ? [`${low} must not exceed ${high}`] : [];
}

function patternProblems(pattern: unknown): string[] {
  if (pattern === undefined || pattern instanceof RegExp) return [];
  try {
    new RegExp(String(pattern));
    return typeof pattern === 'string' ? [] : ['pattern must be a string or a RegExp'];
  } catch {
    return [`pattern ${JSON.stringify(pattern)} is not a valid regular expression`];
  }
}

