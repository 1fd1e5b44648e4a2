import { isDtoClass, readClassProperties } from './class-property.reader';
import { cloneValue } from './json-schema.types';
import { readPropertyTransform, transformsPlainly } from './validation-metadata.adapter';

/** What a compiled step answers when it cannot say what class-transformer would do: the full path takes over. */
export const UNSURE: unique symbol = Symbol('unsure');
export type Unsure = typeof UNSURE;

/** `plainToInstance(cls, plain)` followed by the `@Field` defaults, for plain JSON-like input; `UNSURE` for anything else. */
export interface InstanceBuilder {
  readonly cls: Function;
  build(plain: object): object | Unsure;
  /** `build` of the copy of `source` holding only its own `keys` (listed in that copy's key order), without making the copy. */
  buildDeclared(source: object, keys: readonly string[]): object | Unsure;
}

/** One property's value as class-transformer converts it. */
type Convert = (value: unknown) => unknown;

/**
 * Compiles what class-transformer's `plainToInstance` does for `cls`, and for every class its
 * `@Type`s reach (each lands in `builders`, which the rule runner then compiles too). Covered:
 * copying scalars and arrays of them, `@Type(() => String | Number | Boolean | Date)`
 * conversions, nested `@Type(() => Dto)` objects and arrays of them, property initialisers and
 * `@Field({ default })`. `undefined` when `cls` or a class it reaches uses anything else
 * (`@Transform`, `@Expose`, discriminators, accessors, initialisers holding objects...).
 */
export function compileInstanceBuilder(cls: Function, builders: Map<Function, InstanceBuilder>): InstanceBuilder | undefined {
  const known = builders.get(cls);
  if (known) return known; // reached again through a cycle (a tree of nodes): the same builder
  if (!transformsPlainly(cls)) return undefined;
  const sample = construct(cls);
  if (!sample) return undefined;
  if (!initialisersArePlain(sample)) return undefined;
  const properties = readClassProperties(cls);
  const defaults: ReadonlyArray<readonly [string, unknown]> = properties.filter((p) => p.field.default !== undefined).map((p) => [p.name, p.field.default] as const);
  const converters = new Map<string, Convert>();
  const make = cls as new () => Record<string, unknown>;
  const builder: InstanceBuilder = {
    cls,
    build: (plain) => buildInstance(make, converters, defaults, plain),
    buildDeclared: (source, keys) => buildDeclared(make, converters, defaults, source, keys),
  };
  builders.set(cls, builder);
  for (const property of properties) {
    if (!isPlainlyAssigned(cls, sample, property.name)) return undefined;
    const transform = readPropertyTransform(cls, property.name);
    const convert = transform && converterFor(transform.type, builders);
    if (!convert) return undefined;
    converters.set(property.name, convert);
  }
  return builder;
}

type Defaults = ReadonlyArray<readonly [string, unknown]>;

function buildInstance(cls: new () => Record<string, unknown>, converters: ReadonlyMap<string, Convert>, defaults: Defaults, plain: object): object | Unsure {
  const instance = new cls();
  const source = plain as Record<string, unknown>;
  // for-in sees own keys in Object.keys order; an inherited one is unknown below and gives up.
  for (const key in source) {
    if (!assign(instance, key, converters.get(key), source[key])) return UNSURE;
  }
  return withDefaults(instance, defaults);
}

function buildDeclared(
  cls: new () => Record<string, unknown>, converters: ReadonlyMap<string, Convert>, defaults: Defaults, plain: object, keys: readonly string[],
): object | Unsure {
  const instance = new cls();
  const source = plain as Record<string, unknown>;
  for (const key of keys) {
    if (Object.hasOwn(source, key) && !assign(instance, key, converters.get(key), source[key])) return UNSURE;
  }
  return withDefaults(instance, defaults);
}

/** Sets `instance[key]` to `given` as `convert` converts it; `false` when there is no converter or it is not sure. */
function assign(instance: Record<string, unknown>, key: string, convert: Convert | undefined, given: unknown): boolean {
  if (convert === undefined) return false;
  const value = convert(given);
  if (value === UNSURE) return false;
  instance[key] = value;
  return true;
}

function withDefaults(instance: Record<string, unknown>, defaults: Defaults): object {
  for (const [name, fallback] of defaults) if (instance[name] === undefined) instance[name] = cloneValue(fallback);
  return instance;
}

function construct(cls: Function): Record<string, unknown> | undefined {
  try {
    const made: unknown = Reflect.construct(cls, []);
    return made !== null && typeof made === 'object' ? (made as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * class-transformer skips `__proto__` and `constructor`, keys with a getter on the prototype and
 * keys whose initial value is a function; a setter would run user code. None of these is copied
 * plainly, so the class is left to the full path.
 */
function isPlainlyAssigned(cls: Function, sample: Record<string, unknown>, name: string): boolean {
  return name !== '__proto__' && name !== 'constructor' && !(name in (cls.prototype as object)) && typeof sample[name] !== 'function';
}

/** Initialisers that hold objects would be walked for defaults and nested rules even when the input omits them. */
function initialisersArePlain(sample: Record<string, unknown>): boolean {
  return Object.values(sample).every((value) => isScalar(value) || (Array.isArray(value) && value.every(isScalar)));
}

function isScalar(value: unknown): boolean {
  return value === null || value === undefined || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

const SCALAR_TYPES: ReadonlyMap<Function, (value: unknown) => unknown> = new Map<Function, (value: unknown) => unknown>([
  [String, String],
  [Number, Number],
  [Boolean, Boolean],
  [Date, (value) => new Date(value as string)],
]);

function converterFor(type: Function | undefined, builders: Map<Function, InstanceBuilder>): Convert | undefined {
  if (type === undefined) return copy;
  const scalar = SCALAR_TYPES.get(type);
  if (scalar) return converted(scalar);
  if (!isDtoClass(type) || type === Buffer) return undefined;
  const nested = compileInstanceBuilder(type, builders);
  return nested && instanceOf(nested);
}

/** No `@Type`: scalars as they are, arrays copied item by item. */
const copy: Convert = (value) => {
  if (isScalar(value)) return value;
  return Array.isArray(value) ? eachOf(value, copy) : UNSURE;
};

/** `@Type(() => Number)` and its kin: null and undefined kept, scalars converted, arrays item by item. */
function converted(to: (value: unknown) => unknown): Convert {
  const convert: Convert = (value) => {
    if (value === null || value === undefined) return value;
    if (isScalar(value)) return to(value);
    return Array.isArray(value) ? eachOf(value, convert) : UNSURE;
  };
  return convert;
}

/** `@Type(() => Dto)`: a plain object becomes an instance; scalars pass as they are (the rules then refuse them). */
function instanceOf(builder: InstanceBuilder): Convert {
  const convert: Convert = (value) => {
    if (isScalar(value)) return value;
    if (Array.isArray(value)) return eachOf(value, convert);
    return Object.getPrototypeOf(value) === Object.prototype ? builder.build(value as object) : UNSURE;
  };
  return convert;
}

/** A new array of the converted items; a sparse or exotic array is not said (class-transformer drops holes). */
function eachOf(items: readonly unknown[], convert: Convert): unknown[] | Unsure {
  if (Object.getPrototypeOf(items) !== Array.prototype) return UNSURE;
  const out: unknown[] = [];
  for (let i = 0; i < items.length; i++) {
    if (!(i in items)) return UNSURE;
    const value = convert(items[i]);
    if (value === UNSURE) return UNSURE;
    out.push(value);
  }
  return out;
}
