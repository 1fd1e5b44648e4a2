import * as library from 'class-validator';
import { calendarDateCheck, plainEmailCheck, plainLengthCheck, type PlainCheck } from './plain-format.checks';

/** One class-validator rule with its constraints bound: what its decorator's `validate` computes. */
export type RuleFunction = (value: unknown) => boolean;

/**
 * class-validator's rule functions, read once: its package entry re-exports them through two
 * levels of getters, which a property access per rule call would run every time.
 */
const cv = { ...library };

type Bind = (constraints: readonly unknown[]) => RuleFunction;

/**
 * The built-in rules the compiled validator calls directly, keyed by the name class-validator
 * records. Each entry calls the very function the decorator's `validate` calls, with the same
 * constraints in the same positions (read off class-validator's decorator sources), so a bound
 * rule and the decorator agree by construction; what is saved is the per-rule arguments object
 * and the wrapper class. A user decorator that borrows one of these names is caught at compile
 * time by `agreesOnProbes`, and is then run through its own constraint instance.
 */
const RULES: Readonly<Record<string, Bind>> = Object.freeze({
  isDefined: () => (v) => cv.isDefined(v),
  isString: () => (v) => cv.isString(v),
  isBoolean: () => (v) => cv.isBoolean(v),
  isInt: () => (v) => cv.isInt(v),
  isNumber: ([options]) => (v) => cv.isNumber(v, options as library.IsNumberOptions),
  isPositive: () => (v) => cv.isPositive(v),
  isNegative: () => (v) => cv.isNegative(v),
  min: ([n]) => (v) => cv.min(v, n as number),
  max: ([n]) => (v) => cv.max(v, n as number),
  isDivisibleBy: ([n]) => (v) => cv.isDivisibleBy(v, n as number),
  minLength: ([n]) => plainFirst(plainLengthCheck(n, undefined), (v) => cv.minLength(v, n as number)),
  maxLength: ([n]) => plainFirst(plainLengthCheck(0, n), (v) => cv.maxLength(v, n as number)),
  isLength: ([lo, hi]) => plainFirst(plainLengthCheck(lo, hi), (v) => cv.length(v, lo as number, hi as number)),
  matches: ([pattern, modifiers]) => (v) => (cv.matches as (value: unknown, pattern: unknown, modifiers: unknown) => boolean)(v, pattern, modifiers),
  isNotEmpty: () => (v) => cv.isNotEmpty(v),
  isEmpty: () => (v) => cv.isEmpty(v),
  equals: ([expected]) => (v) => cv.equals(v, expected),
  notEquals: ([expected]) => (v) => cv.notEquals(v, expected),
  isIn: ([allowed]) => (v) => cv.isIn(v, allowed as readonly unknown[]),
  isNotIn: ([denied]) => (v) => cv.isNotIn(v, denied as readonly unknown[]),
  isEnum: ([entity]) => (v) => cv.isEnum(v, entity),
  isEmail: ([options]) => plainFirst(plainEmailCheck(options), (v) => cv.isEmail(v, options as never)),
  isUrl: ([options]) => (v) => cv.isURL(v as string, options as never),
  isUuid: ([version]) => (v) => cv.isUUID(v, version as never),
  isIso8601: ([options]) => plainFirst(calendarDateCheck(options), (v) => cv.isISO8601(v, options as never)),
  isDateString: ([options]) => plainFirst(calendarDateCheck(options), (v) => cv.isDateString(v, options as never)),
  isDate: () => (v) => cv.isDate(v),
  minDate: ([date]) => (v) => cv.minDate(v, date as never),
  maxDate: ([date]) => (v) => cv.maxDate(v, date as never),
  isArray: () => (v) => cv.isArray(v),
  arrayMinSize: ([n]) => (v) => cv.arrayMinSize(v, n as number),
  arrayMaxSize: ([n]) => (v) => cv.arrayMaxSize(v, n as number),
  arrayNotEmpty: () => (v) => cv.arrayNotEmpty(v),
  arrayContains: ([values]) => (v) => cv.arrayContains(v, values as unknown[]),
  arrayNotContains: ([values]) => (v) => cv.arrayNotContains(v, values as unknown[]),
  isNumberString: ([options]) => (v) => cv.isNumberString(v, options as never),
  isBooleanString: () => (v) => cv.isBooleanString(v),
  isAlpha: ([locale]) => (v) => cv.isAlpha(v, locale as never),
  isAlphanumeric: ([locale]) => (v) => cv.isAlphanumeric(v, locale as never),
  isLowercase: () => (v) => cv.isLowercase(v),
  isUppercase: () => (v) => cv.isUppercase(v),
  contains: ([seed]) => (v) => cv.contains(v, seed as string),
  notContains: ([seed]) => (v) => cv.notContains(v, seed as string),
  isHexColor: () => (v) => cv.isHexColor(v),
  isSemVer: () => (v) => cv.isSemVer(v),
  isPort: () => (v) => cv.isPort(v),
  isJwt: () => (v) => cv.isJWT(v),
});

/**
 * `rule`, answered first by `plain` for a string it accepts: `plain` only ever accepts what the
 * library accepts, so the verdict is the library's either way.
 */
function plainFirst(plain: PlainCheck | undefined, rule: RuleFunction): RuleFunction {
  return plain ? (v) => (typeof v === 'string' && plain(v)) || rule(v) : rule;
}

/** The bound built-in rule for `name`, or `undefined` when the name is not one the compiler calls directly. */
export function builtInRule(name: string, constraints: readonly unknown[]): RuleFunction | undefined {
  return Object.hasOwn(RULES, name) ? RULES[name](constraints) : undefined;
}

/**
 * Values a rule is tried on at compile time: each type, the edges of the numeric and string
 * rules, and strings of the shapes the validator.js rules look for.
 */
export const PROBES: readonly unknown[] = Object.freeze([
  undefined, null, true, 0, 1, -1, 1.5, 14, 100, Number.NaN, Number.POSITIVE_INFINITY,
  '', 'a', 'abc', '1.5', '😀', 'a@b.co', 'https://example.com/x', '2020-01-01T10:00:00Z', '2020-13-45', '123e4567-e89b-42d3-a456-426614174000',
  [], ['a', 'a'], {}, new Date(0),
]);

/**
 * Whether `bound` answers like `validate` (a constraint instance's method) on every probe. A
 * throw on either side counts as a disagreement: the caller then keeps the instance.
 */
export function agreesOnProbes(bound: RuleFunction, validate: (value: unknown) => unknown): boolean {
  try {
    return PROBES.every((probe) => bound(probe) === validate(probe));
  } catch {
    return false;
  }
}
