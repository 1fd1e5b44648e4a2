import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import type { Constructor } from '../metadata/metadata-store';
import { isDtoClass, readClassProperties } from './class-property.reader';
import { compileClassSchema } from './class-schema.compiler';
import { toOptions } from './field-options.applier';
import { cloneValue, describeKind, type JsonSchema, type Validated } from './json-schema.types';
import { unlistedEnumValues } from './enum-members.check';
import { formatValidationErrors, issuePath } from './validation-issues.formatter';
import { compiledValidator } from './compiled-validator';
import { declaredWithinLimits, oversizeArrays } from './array-limits';

export type { Validated } from './json-schema.types';

export interface ValidateArgumentsOptions {
  /**
   * Converts string values of top-level number, integer and boolean properties (`"3"` -> 3,
   * `"true"` -> true). Prompt arguments always arrive as strings; tool arguments never need it.
   */
  readonly coerce?: boolean;
  /** Items any one array may hold (the server's `maxArrayItems`); a longer one is refused before validation. */
  readonly maxArrayItems?: number;
}

/**
 * Turns untrusted arguments into a validated instance of `cls`, using the same metadata that
 * produced the advertised schema. Properties the schema does not declare are dropped, at every
 * depth, not rejected: clients that send extras keep working and nothing undeclared reaches the
 * handler. A missing `input` counts as `{}` (MCP lets `arguments` be omitted). Never throws:
 * anything wrong comes back as `issues`, one line per failing property.
 *
 * @example
 * const result = await validateArguments(ForecastArgs, { city: 'Paris', days: 30 });
 * if (!result.ok) throw ProtocolError.invalidParams(result.issues.join('\n'));
 * // result.issues: ['days: must not be greater than 14']
 */
export async function validateArguments<T>(cls: Constructor<T>, input: unknown, options: ValidateArgumentsOptions = {}): Promise<Validated<T>> {
  return checkArguments(cls, input, options);
}

/**
 * `validateArguments` without a promise where none is needed: what the compiled validator (valid
 * input of a class it covers) or a malformed `input` decides comes back at once, and only
 * class-validator's own run is awaited. The argument pipe of every call goes through it.
 */
export function checkArguments<T>(cls: Constructor<T>, input: unknown, options: ValidateArgumentsOptions = {}): Validated<T> | Promise<Validated<T>> {
  return check(cls, input, options, true);
}

/**
 * `checkArguments` with the compiled validator left out: class-transformer + class-validator
 * alone, the behaviour the compiled validator must reproduce exactly. For specs and benches.
 * Not part of the public surface.
 */
export function checkArgumentsFully<T>(cls: Constructor<T>, input: unknown, options: ValidateArgumentsOptions = {}): Validated<T> | Promise<Validated<T>> {
  return check(cls, input, options, false);
}

function check<T>(cls: Constructor<T>, input: unknown, options: ValidateArgumentsOptions, compiled: boolean): Validated<T> | Promise<Validated<T>> {
  const args = input === undefined ? {} : input;
  if (args === null || typeof args !== 'object' || Array.isArray(args)) {
    return { ok: false, issues: [`arguments: expected an object, got ${describeKind(args)}`] };
  }
  try {
    const schema = compileClassSchema(cls);
    const direct = compiled && !options.coerce ? validatedInPlace(cls, args as Record<string, unknown>, schema, options.maxArrayItems) : undefined;
    if (direct) return { ok: true, value: direct as T };
    let plain = (pickFlat(args as Record<string, unknown>, schema) ?? pickDeclared(args, schema, schema)) as Record<string, unknown>;
    if (options.coerce) plain = coerceScalars(plain, schema);
    if (options.maxArrayItems !== undefined) {
      const oversize = oversizeArrays(plain, options.maxArrayItems);
      if (oversize.length > 0) return { ok: false, issues: [...oversize] };
    }
    // Valid input of a covered class is built and checked here; anything else, invalid input
    // included, takes the full path, which also words the issues.
    const fast = compiled ? compiledValidator(cls, schema)?.(plain) : undefined;
    if (fast) return { ok: true, value: fast as T };
    return fullyValidated(cls, plain, schema);
  } catch (error) {
    return notValidated(error);
  }
}

/**
 * The compiled validator's instance for a flat class, read straight from the arguments as sent:
 * what picking the declared properties, the array limits and the compiled validator would give,
 * without the picked copy. Only when every declared value is a scalar or an array of scalars
 * within the limits (then the limits have nothing to say); `undefined` otherwise, and the caller
 * takes the usual path.
 */
function validatedInPlace(cls: Function, args: Record<string, unknown>, schema: JsonSchema, maxArrayItems = Infinity): object | undefined {
  const keys = flatKeysOf(schema);
  if (keys === null || !declaredWithinLimits(args, keys, maxArrayItems)) return undefined;
  return compiledValidator(cls, schema)?.(args, keys);
}

/** class-transformer then class-validator, with every issue worded. */
async function fullyValidated<T>(cls: Constructor<T>, plain: Record<string, unknown>, schema: JsonSchema): Promise<Validated<T>> {
  try {
    const instance = plainToInstance(cls, plain) as T;
    applyFieldDefaults(instance, new Set());
    const errors = await validate(instance as object, { forbidUnknownValues: false, validationError: { target: true, value: true } });
    const failed = new Set(errors.map((e) => e.property));
    const record = instance as Record<string, unknown>;
    const worded = formatValidationErrors(errors);
    const issues = [
      ...worded, ...missingRequired(schema, record, failed), ...unlistedChoices(cls, record, failed), ...unlistedEnumValues(instance, new Set(worded.map(issuePath))),
    ];
    return issues.length ? { ok: false, issues } : { ok: true, value: instance };
  } catch (error) {
    return notValidated(error);
  }
}

/** Only a user transformer or validator can throw; it is reported rather than failing the caller. */
function notValidated(error: unknown): Validated<never> {
  return { ok: false, issues: [`arguments: could not be validated (${error instanceof Error ? error.message : String(error)})`] };
}

const flatKeys = new WeakMap<JsonSchema, readonly string[] | null>();

/**
 * A flat schema's (no nested objects) declared keys, in the order a copy holding them would list
 * them (integer-like keys first, as for any object); `null` for any other schema.
 */
function flatKeysOf(schema: JsonSchema): readonly string[] | null {
  let keys = flatKeys.get(schema);
  if (keys === undefined) {
    const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
    const flat = Object.values(properties).every((p) => !p.$ref && !p.properties && !(p.items && ((p.items as JsonSchema).$ref || (p.items as JsonSchema).properties)));
    keys = flat ? Object.keys(Object.fromEntries(Object.keys(properties).map((key) => [key, true]))) : null;
    flatKeys.set(schema, keys);
  }
  return keys;
}

/** For a flat schema, the declared keys copied in one pass; else `undefined`. */
function pickFlat(value: Record<string, unknown>, schema: JsonSchema): Record<string, unknown> | undefined {
  const keys = flatKeysOf(schema);
  if (keys === null) return undefined;
  const out: Record<string, unknown> = {};
  for (const key of keys) if (Object.hasOwn(value, key)) out[key] = value[key];
  return out;
}

/** A copy of `value` keeping only what `schema` declares; `$ref`s resolve against `root`. */
function pickDeclared(value: unknown, schema: JsonSchema, root: JsonSchema): unknown {
  const target = resolveRef(schema, root);
  const items = target.items as JsonSchema | undefined;
  if (Array.isArray(value) && items && typeof items === 'object') return value.map((v) => pickDeclared(v, items, root));
  const properties = target.properties as Record<string, JsonSchema> | undefined;
  if (!properties || value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, sub] of Object.entries(properties)) {
    if (Object.hasOwn(value, key)) out[key] = pickDeclared((value as Record<string, unknown>)[key], sub, root);
  }
  return out;
}

function resolveRef(schema: JsonSchema, root: JsonSchema): JsonSchema {
  const ref = schema.$ref;
  if (ref === '#') return root;
  if (typeof ref === 'string' && ref.startsWith('#/$defs/')) {
    return ((root.$defs as Record<string, JsonSchema> | undefined)?.[ref.slice('#/$defs/'.length)]) ?? {};
  }
  return schema;
}

const COERCERS: Readonly<Record<string, (text: string) => unknown>> = {
  number: toNumber,
  integer: toNumber,
  boolean: (text) => BOOLEAN_WORDS.get(text.trim().toLowerCase()) ?? text,
};

const BOOLEAN_WORDS: ReadonlyMap<string, boolean> = new Map([
  ['true', true],
  ['false', false],
]);

function toNumber(text: string): unknown {
  const n = Number(text.trim());
  return text.trim() !== '' && Number.isFinite(n) ? n : text;
}

/** Unconvertible strings are left alone so the validator reports them in its own words. */
function coerceScalars(plain: Record<string, unknown>, schema: JsonSchema): Record<string, unknown> {
  const properties = schema.properties as Record<string, JsonSchema>;
  const out = { ...plain };
  for (const [key, value] of Object.entries(out)) {
    const type = String(properties[key]?.type);
    if (typeof value === 'string' && Object.hasOwn(COERCERS, type)) out[key] = COERCERS[type](value);
  }
  return out;
}

/** `@Field({ default })` without an initialiser: fill it in, in nested DTO instances too. */
function applyFieldDefaults(value: unknown, seen: Set<object>): void {
  if (value === null || typeof value !== 'object' || seen.has(value)) return;
  seen.add(value);
  if (Array.isArray(value)) return value.forEach((item) => applyFieldDefaults(item, seen));
  if (!isDtoClass(value.constructor)) return;
  const record = value as Record<string, unknown>;
  for (const property of readClassProperties(value.constructor)) {
    if (record[property.name] === undefined && property.field.default !== undefined) record[property.name] = cloneValue(property.field.default);
    applyFieldDefaults(record[property.name], seen);
  }
}

/**
 * `@Field({ oneOf })` without `@IsIn` advertises a closed list that no validator checks; check it
 * here so a value the schema rules out never reaches the handler.
 */
function unlistedChoices(cls: Function, instance: Record<string, unknown>, reported: ReadonlySet<string>): string[] {
  return readClassProperties(cls)
    .filter((p) => p.field.oneOf && !reported.has(p.name) && instance[p.name] !== undefined && !p.rules.some((r) => CHOICE_RULES.has(r.name)))
    .flatMap((p) => {
      const allowed = toOptions(p.field.oneOf!).map((o) => o.const);
      const value = instance[p.name];
      const ok = Array.isArray(value) ? value.every((v) => allowed.includes(v)) : allowed.includes(value);
      return ok ? [] : [`${p.name}: must be one of: ${allowed.join(', ')}`];
    });
}

const CHOICE_RULES: ReadonlySet<string> = new Set(['isIn', 'isEnum']);

/** Required properties with no validator to notice they are missing. */
function missingRequired(schema: JsonSchema, instance: Record<string, unknown>, reported: ReadonlySet<string>): string[] {
  const required = (schema.required as string[] | undefined) ?? [];
  return required.filter((name) => instance[name] === undefined && !reported.has(name)).map((name) => `${name}: is required`);
}
