import type { FieldOptions } from '../metadata/field-options';
import { readFields, readPropertyType } from '../metadata/metadata-store';
import { readTransformTypes, readValidationRules, type ValidationRule } from './validation-metadata.adapter';

/** Everything the framework knows about one property of a DTO or form class, from every source. */
export interface ClassProperty {
  readonly name: string;
  /** class-validator rules, in declaration order. */
  readonly rules: readonly ValidationRule[];
  /** TypeScript's `design:type` (String, Number, Array, a class...), or undefined. */
  readonly designType: unknown;
  /** Classes class-transformer builds for the value (`@Type`), else a class `design:type`. */
  readonly nestedTypes: readonly Function[];
  readonly field: FieldOptions;
  /** `@IsOptional` or `@ValidateIf`: the value may be absent. */
  readonly optional: boolean;
  /** `Field.default`, else a JSON-serialisable property initialiser; undefined when neither. */
  readonly defaultValue: unknown;
}

/** Constructors that are values, not DTOs: a `design:type` of one of these is never "nested". */
const BUILT_INS: ReadonlySet<unknown> = new Set<unknown>([
  String, Number, Boolean, Object, Array, Date, Function, Promise, Symbol, BigInt, RegExp, Map, Set, Error,
]);

const OPTIONAL_RULES: ReadonlySet<string> = new Set(['isOptional', 'conditionalValidation']);

const cache = new WeakMap<Function, readonly ClassProperty[]>();

/** The properties of `cls` (validated, `@Field`-described or both), cached per class. */
export function readClassProperties(cls: Function): readonly ClassProperty[] {
  let properties = cache.get(cls);
  if (!properties) {
    properties = Object.freeze(collect(cls));
    cache.set(cls, properties);
  }
  return properties;
}

/** A user class (not String, Date, ...) that would be described by its own object schema. */
export function isDtoClass(value: unknown): value is Function {
  return typeof value === 'function' && !BUILT_INS.has(value) && typeof value.prototype === 'object';
}

function collect(cls: Function): ClassProperty[] {
  const rules = readValidationRules(cls);
  const fields = readFields<FieldOptions>(cls);
  const initial = readInitialValues(cls);
  const names = mergeOrder([[...rules.keys()], Object.keys(fields), Object.keys(initial).filter((k) => rules.has(k) || k in fields)]);

  return names.map((name) => {
    const propertyRules = rules.get(name) ?? [];
    const field = fields[name] ?? {};
    const designType = readPropertyType(cls.prototype, name);
    const transformed = readTransformTypes(cls, name).filter(isDtoClass);
    return Object.freeze({
      name,
      rules: propertyRules,
      designType,
      nestedTypes: Object.freeze(transformed.length ? transformed : isDtoClass(designType) ? [designType] : []),
      field,
      optional: propertyRules.some((r) => OPTIONAL_RULES.has(r.name)),
      defaultValue: field.default !== undefined ? field.default : initial[name],
    });
  });
}

/**
 * Merges property names seen by several sources into one order. Each source lists its names in
 * declaration order, but no source sees them all (a `@Field`-only property is unknown to
 * class-validator), so a name missing from the result goes right after its nearest predecessor
 * in its own source, else right before its nearest successor. Exact when one source saw every
 * property (all validated, or all `@Field`-described); otherwise a best guess.
 */
function mergeOrder(sources: readonly string[][]): string[] {
  // The source that saw the most names sets the frame; a stable sort keeps validators first on a tie.
  const ordered = [...sources].sort((a, b) => b.length - a.length);
  // Usually it saw every name (all validated, or all described): then it is the order, and start-up,
  // which reads one class per tool, need not place the names one by one.
  const frame = new Set(ordered[0]);
  if (ordered.every((source) => source.every((name) => frame.has(name)))) return [...frame];
  const out: string[] = [];
  for (const source of ordered) {
    source.forEach((name, i) => {
      if (out.includes(name)) return;
      const before = source.slice(0, i).reverse().find((n) => out.includes(n));
      const after = source.slice(i + 1).find((n) => out.includes(n));
      const at = before !== undefined ? out.indexOf(before) + 1 : after !== undefined ? out.indexOf(after) : out.length;
      out.splice(at, 0, name);
    });
  }
  return out;
}

/**
 * Property initialisers, read by constructing the class once with no arguments. Only JSON
 * values a schema can advertise are kept: strings, finite numbers, booleans and arrays of them.
 */
function readInitialValues(cls: Function): Record<string, unknown> {
  let instance: object;
  try {
    instance = Reflect.construct(cls, []);
  } catch {
    return {}; // a constructor that needs arguments or has side effects that fail: no defaults
  }
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(instance ?? {})) {
    if (isJsonScalar(value) || (Array.isArray(value) && value.every(isJsonScalar))) out[key] = value;
  }
  return out;
}

function isJsonScalar(value: unknown): boolean {
  return typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
}
