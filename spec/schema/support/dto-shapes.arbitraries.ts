import 'reflect-metadata';
import { Type } from 'class-transformer';
import * as cv from 'class-validator';
import fc from 'fast-check';
import { Field } from '../../../lib/decorators/field.decorator';
import { dateLike, emailLike } from './format-strings.arbitraries';

/**
 * DTO shapes as data, turned into real decorated classes at run time, and values for them: the
 * inputs of the compiled validator's differential spec. A shape is data so fast-check can print
 * and shrink it; `materialize` applies the decorators as TypeScript would (design types first).
 */

export type RuleSpec = { readonly rule: string; readonly args: readonly unknown[]; readonly each?: boolean };

export type Kind = 'string' | 'number' | 'boolean' | 'toNumber' | 'toString' | 'toBoolean' | 'toDate' | 'array' | 'nested' | 'nestedArray' | 'free';

export interface PropShape {
  readonly kind: Kind;
  readonly rules: readonly RuleSpec[];
  /** `isOptional`, `validateIf` (on the sibling `_skip` flag being absent), or none. */
  readonly optional: 'none' | 'isOptional' | 'validateIf';
  readonly defined: boolean;
  readonly initial?: unknown;
  readonly fieldDefault?: unknown;
  /** `@Field({ oneOf })` over `a, b` (string kinds). */
  readonly oneOf: boolean;
  /** Nested kinds: the nested class, whether `@Type` and `@ValidateNested` are applied. */
  readonly nested?: ClassShape;
  readonly typed: boolean;
  readonly validateNested: boolean;
}

export interface ClassShape {
  readonly props: readonly PropShape[];
  /** Properties (by index) redeclared from a parent class built from the same shape's first prop. */
  readonly withParent: boolean;
}

enum Level { Low, High }
enum Colour { Red = 'r', Green = 'g' }

/** A user decorator that borrows a built-in's name (`isInt`) and means something else: the probe guard must keep its own instance. */
function LooksLikeIsInt(options?: cv.ValidationOptions): PropertyDecorator {
  return (target, property) => cv.registerDecorator({
    name: 'isInt', target: target.constructor, propertyName: property as string, options,
    validator: { validate: (value: unknown) => typeof value === 'number' && value % 2 === 0 },
  });
}

/** A plain synchronous user rule, run through its constraint instance. */
function IsShort(options?: cv.ValidationOptions): PropertyDecorator {
  return (target, property) => cv.registerDecorator({
    name: 'isShort', target: target.constructor, propertyName: property as string, options,
    validator: { validate: (value: unknown) => typeof value !== 'string' || value.length <= 3 },
  });
}

const DECORATORS: Readonly<Record<string, (...args: never[]) => PropertyDecorator>> = {
  IsString: cv.IsString, MinLength: cv.MinLength, MaxLength: cv.MaxLength, Length: cv.Length, Matches: cv.Matches, IsEmail: cv.IsEmail,
  IsUUID: cv.IsUUID, IsUrl: cv.IsUrl, IsISO8601: cv.IsISO8601, IsDateString: cv.IsDateString, IsIn: cv.IsIn, IsNotIn: cv.IsNotIn,
  IsNotEmpty: cv.IsNotEmpty, IsEnum: cv.IsEnum, Contains: cv.Contains, IsNumber: cv.IsNumber, IsInt: cv.IsInt, Min: cv.Min, Max: cv.Max,
  IsPositive: cv.IsPositive, IsNegative: cv.IsNegative, IsDivisibleBy: cv.IsDivisibleBy, IsBoolean: cv.IsBoolean, IsDate: cv.IsDate,
  MinDate: cv.MinDate, IsArray: cv.IsArray, ArrayMinSize: cv.ArrayMinSize, ArrayMaxSize: cv.ArrayMaxSize, ArrayNotEmpty: cv.ArrayNotEmpty,
  Equals: cv.Equals, IsNumberString: cv.IsNumberString, LooksLikeIsInt, IsShort,
} as never;

const r = (rule: string, ...args: unknown[]): RuleSpec => ({ rule, args });
const each = (rule: string, ...args: unknown[]): RuleSpec => ({ rule, args, each: true });

const STRING_RULES: readonly RuleSpec[] = [
  r('IsString'), r('MinLength', 2), r('MaxLength', 4), r('Length', 1, 3), r('Matches', /^[a-c]*$/), r('Matches', '^a', 'i'), r('IsEmail'),
  r('IsEmail', { allow_ip_domain: true }), r('IsEmail', { host_blacklist: ['b.co'] }), r('IsUUID'), r('IsUrl'), r('IsISO8601'), r('IsISO8601', { strict: true }),
  r('IsDateString'), r('IsDateString', { strict: true }), r('IsIn', ['a', 'b', 'ab']), r('IsNotIn', ['x']),
  r('IsNotEmpty'), r('IsEnum', Colour), r('Contains', 'b'), r('IsShort'), r('IsNumberString'), r('Equals', 'ab'),
];
const NUMBER_RULES: readonly RuleSpec[] = [
  r('IsNumber'), r('IsNumber', { allowNaN: true, allowInfinity: true }), r('IsNumber', { maxDecimalPlaces: 1 }), r('IsInt'), r('Min', 1), r('Max', 14),
  r('IsPositive'), r('IsNegative'), r('IsIn', [1, 2, 3]), r('IsEnum', Level), r('IsDivisibleBy', 2), r('LooksLikeIsInt'),
];
const ARRAY_RULES: readonly RuleSpec[] = [
  r('IsArray'), r('ArrayMinSize', 1), r('ArrayMaxSize', 2), r('ArrayNotEmpty'), each('IsInt'), each('IsString'), each('IsIn', ['a', 'b']),
  each('MinLength', 1), each('Max', 5), each('IsEnum', Level),
];
const CONVERSION_RULES: Readonly<Record<string, readonly RuleSpec[]>> = {
  toNumber: [r('IsNumber'), r('IsInt'), r('Min', 0), r('Max', 9)],
  toString: [r('IsString'), r('MinLength', 1), r('IsIn', ['1', 'true', 'a'])],
  toBoolean: [r('IsBoolean'), r('Equals', true)],
  toDate: [r('IsDate'), r('MinDate', new Date(0))],
};

const CONVERSIONS: Readonly<Record<string, Function>> = { toNumber: Number, toString: String, toBoolean: Boolean, toDate: Date };

const pick = (rules: readonly RuleSpec[]) => fc.subarray([...rules], { maxLength: Math.min(3, rules.length) });

const scalarInitial = fc.constantFrom<unknown>(undefined, undefined, 'a', 'ab', 3, 0, true, ['a']);

function propShape(depth: number): fc.Arbitrary<PropShape> {
  const kinds: Kind[] = ['string', 'number', 'boolean', 'toNumber', 'toString', 'toBoolean', 'toDate', 'array', 'free', ...(depth < 2 ? ['nested', 'nested', 'nestedArray'] as Kind[] : [])];
  return fc.constantFrom(...kinds).chain((kind) => fc.record({
    kind: fc.constant(kind),
    rules: rulesFor(kind),
    optional: fc.constantFrom<PropShape['optional']>('none', 'none', 'isOptional', 'isOptional', 'validateIf'),
    defined: fc.constantFrom(false, false, false, false, true),
    initial: kind === 'nested' || kind === 'nestedArray' ? fc.constant(undefined) : scalarInitial,
    fieldDefault: kind === 'nested' || kind === 'nestedArray' ? fc.constant(undefined) : fc.constantFrom<unknown>(undefined, undefined, undefined, 'ab', 2, ['b']),
    oneOf: kind === 'string' ? fc.boolean() : fc.constant(false),
    nested: kind === 'nested' || kind === 'nestedArray' ? classShape(depth + 1) : fc.constant(undefined),
    typed: fc.constantFrom(true, true, true, true, false),
    validateNested: fc.constantFrom(true, true, true, false),
  }));
}

function rulesFor(kind: Kind): fc.Arbitrary<RuleSpec[]> {
  switch (kind) {
    case 'string': return pick(STRING_RULES);
    case 'number': return pick(NUMBER_RULES);
    case 'boolean': return fc.constantFrom([r('IsBoolean')], []);
    case 'array': return pick(ARRAY_RULES);
    case 'nestedArray': return fc.subarray([r('IsArray'), r('ArrayMinSize', 1), r('ArrayMaxSize', 2)], { maxLength: 2 });
    case 'nested': case 'free': return fc.constant([]);
    default: return pick(CONVERSION_RULES[kind]);
  }
}

/** A class shape: one to five properties, nested classes two levels deep at most. */
export function classShape(depth = 0): fc.Arbitrary<ClassShape> {
  return fc.record({ props: fc.array(propShape(depth), { minLength: 1, maxLength: depth === 0 ? 5 : 3 }), withParent: fc.boolean() });
}

let serial = 0;

/**
 * The class for `shape`: properties `p0`, `p1`, ... with their decorators, initialisers in the
 * constructor; with `withParent`, `p0` is declared on a parent class and the rest on the child.
 */
export function materialize(shape: ClassShape): Function {
  const id = serial++;
  const initials = shape.props.map((p, i) => [`p${i}`, p.initial] as const).filter(([, v]) => v !== undefined);
  const Parent = class { constructor() { for (const [k, v] of initials) if (k === 'p0') (this as Record<string, unknown>)[k] = structuredClone(v); } };
  const Own = shape.withParent
    ? class extends Parent { constructor() { super(); for (const [k, v] of initials) if (k !== 'p0') (this as Record<string, unknown>)[k] = structuredClone(v); } }
    : class { constructor() { for (const [k, v] of initials) (this as Record<string, unknown>)[k] = structuredClone(v); } };
  Object.defineProperty(Parent, 'name', { value: `Parent${id}` });
  Object.defineProperty(Own, 'name', { value: `Shape${id}` });
  shape.props.forEach((p, i) => decorate(shape.withParent && i === 0 ? Parent : Own, `p${i}`, p));
  return Own;
}

function decorate(cls: Function, name: string, p: PropShape): void {
  const proto = cls.prototype as object;
  const nested = p.nested ? materialize(p.nested) : undefined;
  const designType = p.kind === 'array' || p.kind === 'nestedArray' ? Array : nested ?? DESIGN_TYPES[p.kind] ?? Object;
  Reflect.defineMetadata('design:type', designType, proto, name);
  const apply = (d: PropertyDecorator) => d(proto, name);
  if (p.kind.startsWith('to')) apply(Type(() => CONVERSIONS[p.kind] as never));
  if (nested && p.typed) apply(Type(() => nested));
  if (nested && p.validateNested) apply(cv.ValidateNested({ each: p.kind === 'nestedArray' }));
  if (p.optional === 'isOptional') apply(cv.IsOptional());
  if (p.optional === 'validateIf') apply(cv.ValidateIf((o: Record<string, unknown>) => o.p0 !== 'skip'));
  if (p.defined) apply(cv.IsDefined());
  for (const rule of p.rules) apply(DECORATORS[rule.rule](...(rule.args as never[]), ...(rule.each ? [{ each: true }] : []) as never[]));
  const field: Record<string, unknown> = {};
  if (p.fieldDefault !== undefined) field.default = p.fieldDefault;
  if (p.oneOf) field.oneOf = { a: 'A', b: 'B' };
  if (Object.keys(field).length || p.kind === 'free') apply(Field(field));
}

const DESIGN_TYPES: Readonly<Record<string, Function>> = { string: String, number: Number, boolean: Boolean, toNumber: Number, toString: String, toBoolean: Boolean, toDate: Date };

/** Values a client (or a tool's result) may hold where anything is expected. */
export const hostile: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(
    null, undefined, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -0, 1e308, 2 ** 53 + 1, -1, 1.5, '', ' ', '😀', 'skip',
    '__proto__', 'constructor', 'true', '1', '0x10', '1e3', 'Low', [], [null], [[1]], [1, 'a'], {}, { a: 1 }, true, false,
    JSON.parse('{"__proto__": {"polluted": 1}}'), new Date(0), Object.create(null), Symbol('s'),
  ),
  fc.string({ maxLength: 6 }),
  fc.string({ unit: 'grapheme', maxLength: 3 }),
  fc.double(),
  fc.integer(),
);

const ABSENT = Symbol('absent');

/** A value of the kind `p` asks for, often right, sometimes at the edges of its rules. */
function validish(p: PropShape, depth: number): fc.Arbitrary<unknown> {
  switch (p.kind) {
    case 'string': case 'toString': case 'free':
      return fc.oneof(
        { arbitrary: fc.constantFrom('a', 'ab', 'abc', 'A', 'b', 'x', '', 'a@b.co', '123e4567-e89b-42d3-a456-426614174000', 'https://example.com/x', '2020-01-01', '2020-01-01T10:00:00Z', '12', 'r', 'g'), weight: 4 },
        { arbitrary: fc.string({ maxLength: 5 }), weight: 4 },
        { arbitrary: emailLike, weight: 1 },
        { arbitrary: dateLike, weight: 1 },
      );
    case 'number':
      return fc.oneof(fc.integer({ min: -3, max: 16 }), fc.constantFrom(0, 1, 2, 1.5, 14, 15, -1, Number.NaN, Number.POSITIVE_INFINITY, 0.1), fc.double({ noNaN: true }));
    case 'boolean': case 'toBoolean':
      return fc.constantFrom(true, false, 'true', 0, 1);
    case 'toNumber':
      return fc.oneof(fc.constantFrom('1', '7', ' 3 ', '1.5', 'x', '', 5, 10, -1, true, [1, '2']), fc.integer({ min: -2, max: 12 }));
    case 'toDate':
      return fc.constantFrom('2020-01-01', '1960-01-01', 'nope', 0, 86_400_000, -5, true);
    case 'array':
      return fc.array(fc.oneof(fc.integer({ min: -1, max: 7 }), fc.constantFrom('a', 'b', 'c', '', null, 1.5, [1])), { maxLength: 3 });
    case 'nested':
      return objectFor(p.nested!, depth + 1);
    case 'nestedArray':
      return fc.array(fc.oneof({ arbitrary: objectFor(p.nested!, depth + 1), weight: 5 }, { arbitrary: hostile, weight: 1 }), { maxLength: 3 });
  }
}

/** A plain object for `shape`: each property right, hostile or absent; sometimes an extra or dangerous key. */
export function objectFor(shape: ClassShape, depth = 0): fc.Arbitrary<Record<string, unknown>> {
  const entries = shape.props.map((p) => fc.oneof(
    { arbitrary: validish(p, depth), weight: 6 },
    { arbitrary: hostile, weight: 1 },
    { arbitrary: fc.constant<unknown>(ABSENT), weight: 2 },
  ));
  const extra = fc.option(fc.constantFrom('extra', '__proto__', 'constructor', 'toString', 'p9'), { freq: 4 });
  return fc.tuple(fc.tuple(...entries), extra, hostile).map(([values, key, junk]) => {
    const out: Record<string, unknown> = {};
    values.forEach((value, i) => { if (value !== ABSENT) out[`p${i}`] = value; });
    // Defined like JSON.parse does: an own data property, even for __proto__.
    if (key !== null) Object.defineProperty(out, key, { value: junk, enumerable: true, writable: true, configurable: true });
    return out;
  });
}
