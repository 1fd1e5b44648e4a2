import { isEmail, isISO8601 } from 'class-validator';
import type { Constructor } from '../metadata/metadata-store';
import { validateArguments } from './argument-validator';
import type { FormElicitation, FormProperty } from './form-elicitation';
import { cloneValue, describeKind, type JsonSchema, type Validated } from './json-schema.types';

type Check = (value: unknown, schema: JsonSchema, pattern?: RegExp) => string[];

/** What each `format` a form may carry accepts; the same library checks as `@IsEmail`/`@IsDateString`. */
const FORMAT_CHECKS: Readonly<Record<string, (text: string) => boolean>> = Object.freeze({
  email: (text) => isEmail(text),
  uri: (text) => URL.canParse(text),
  date: (text) => /^\d{4}-\d{2}-\d{2}$/.test(text) && isISO8601(text, { strict: true }),
  'date-time': (text) => /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}/.test(text) && isISO8601(text, { strict: true }),
});

const checkString: Check = (value, s, pattern) => {
  if (typeof value !== 'string') return ['must be a string'];
  const problems: string[] = [];
  const length = [...value].length; // JSON Schema counts code points, not UTF-16 units
  if (typeof s.minLength === 'number' && length < s.minLength) problems.push(`must be at least ${s.minLength} characters`);
  if (typeof s.maxLength === 'number' && length > s.maxLength) problems.push(`must be at most ${s.maxLength} characters`);
  const regex = pattern ?? (typeof s.pattern === 'string' ? compile(s.pattern) : undefined);
  if (regex && !regex.test(value)) problems.push(`must match ${regex.source}`);
  const format = typeof s.format === 'string' && Object.hasOwn(FORMAT_CHECKS, s.format) ? FORMAT_CHECKS[s.format] : undefined;
  if (format && !format(value)) problems.push(`must be a valid ${s.format}`);
  const allowed = allowedValues(s);
  if (allowed && !allowed.includes(value)) problems.push(`must be one of: ${allowed.join(', ')}`);
  return problems;
};

const checkNumber: Check = (value, s) => {
  if (typeof value !== 'number' || !Number.isFinite(value)) return ['must be a number'];
  if (s.type === 'integer' && !Number.isInteger(value)) return ['must be an integer'];
  const problems: string[] = [];
  if (typeof s.minimum === 'number' && value < s.minimum) problems.push(`must not be less than ${s.minimum}`);
  if (typeof s.maximum === 'number' && value > s.maximum) problems.push(`must not be greater than ${s.maximum}`);
  return problems;
};

const checkMulti: Check = (value, s) => {
  const allowed = allowedValues((s.items ?? {}) as JsonSchema) ?? [];
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) return ['must be a list of strings'];
  const problems = value.filter((v) => !allowed.includes(v)).map((v) => `${JSON.stringify(v)} is not one of: ${allowed.join(', ')}`);
  if (typeof s.minItems === 'number' && value.length < s.minItems) problems.push(`must have at least ${s.minItems} selected`);
  if (typeof s.maxItems === 'number' && value.length > s.maxItems) problems.push(`must have at most ${s.maxItems} selected`);
  return problems;
};

const CHECKS: Readonly<Record<string, Check>> = Object.freeze({
  string: checkString,
  number: checkNumber,
  integer: checkNumber,
  boolean: (value) => (typeof value === 'boolean' ? [] : ['must be a boolean']),
  array: checkMulti,
});

/**
 * Validates the `content` of an accepted elicitation against the form that asked for it. A
 * class form goes through `validateArguments` (a validated instance comes back); any other form
 * is checked against its `requestedSchema`: types, bounds, lengths, pattern, format, choices and
 * required fields. Undeclared fields are dropped, `null` counts as absent, and an absent field
 * with a `default` gets it. Never throws.
 *
 * @example
 * const checked = await validateFormContent(form, result.content);
 * if (!checked.ok) return toolError(`Invalid answer: ${checked.issues.join('; ')}`);
 */
export async function validateFormContent(form: FormElicitation, content: unknown): Promise<Validated<unknown>> {
  if (form.formClass) return validateArguments(form.formClass as Constructor, content);
  const answer = content === undefined ? {} : content;
  if (answer === null || typeof answer !== 'object' || Array.isArray(answer)) {
    return { ok: false, issues: [`content: expected an object, got ${describeKind(answer)}`] };
  }
  const patterns = patternsOf(form.properties ?? []);
  const required = new Set(form.requestedSchema.required ?? []);
  const value: Record<string, unknown> = {};
  const issues: string[] = [];
  for (const [name, schema] of Object.entries(form.requestedSchema.properties)) {
    const given = Object.hasOwn(answer, name) ? (answer as Record<string, unknown>)[name] : undefined;
    if (given === undefined || given === null) {
      if (schema.default !== undefined) value[name] = cloneValue(schema.default);
      else if (required.has(name)) issues.push(`${name}: is required`);
      continue;
    }
    const check = Object.hasOwn(CHECKS, String(schema.type)) ? CHECKS[String(schema.type)] : undefined;
    const problems = check ? check(given, schema, patterns.get(name)) : [];
    if (problems.length) issues.push(`${name}: ${problems.join('; ')}`);
    else value[name] = given;
  }
  return issues.length ? { ok: false, issues } : { ok: true, value };
}

/** A builder's `RegExp` keeps its flags (`i`...), which the wire's pattern string cannot. */
function patternsOf(properties: readonly FormProperty[]): Map<string, RegExp> {
  return new Map(properties.flatMap((p) => (p.type === 'string' && p.pattern instanceof RegExp ? [[p.name, p.pattern] as const] : [])));
}

/** A hand-written schema may carry a pattern JavaScript cannot compile; it then checks nothing. */
function compile(pattern: string): RegExp | undefined {
  try {
    return new RegExp(pattern);
  } catch {
    return undefined;
  }
}

function allowedValues(s: JsonSchema): unknown[] | undefined {
  if (Array.isArray(s.enum)) return s.enum;
  if (Array.isArray(s.anyOf)) return s.anyOf.map((o) => (o as JsonSchema).const);
  if (Array.isArray(s.oneOf)) return s.oneOf.map((o) => (o as JsonSchema).const);
  return undefined;
}
