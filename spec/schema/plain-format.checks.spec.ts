import { expect } from 'chai';
import * as cv from 'class-validator';
import fc from 'fast-check';
import { calendarDateCheck, plainEmailCheck, plainLengthCheck } from '../../lib/schema/plain-format.checks';
import { builtInRule } from '../../lib/schema/rule-functions';
import { dateLike, emailLike, lengthLike } from './support/format-strings.arbitraries';

/**
 * The quick answers of the compiled validator's format rules against validator.js itself: for
 * any string, the bound rule (quick check, then the library) answers exactly as class-validator's
 * function does with the same options, a throw included. `VALIDATOR_SEED=n` replays a run;
 * `VALIDATOR_RUNS` scales it.
 */

const SEED = process.env.VALIDATOR_SEED === undefined ? undefined : Number(process.env.VALIDATOR_SEED);
const RUNS = Number(process.env.VALIDATOR_RUNS ?? 300) * 20;

type Answer = boolean | 'throws';

function answer(rule: (value: unknown) => boolean, value: unknown): Answer {
  try {
    return rule(value);
  } catch {
    return 'throws';
  }
}

interface Variant {
  readonly label: string;
  readonly name: string;
  readonly constraints: readonly unknown[];
  readonly library: (value: unknown) => boolean;
}

/** `@IsEmail` options: the defaults, the ones that only widen, and the ones that can refuse a plain address. */
const EMAIL_OPTIONS: readonly unknown[] = [
  undefined, null, {}, { allow_ip_domain: true }, { require_tld: false }, { allow_underscores: true }, { allow_utf8_local_part: false },
  { ignore_max_length: true }, { allow_display_name: true }, { host_blacklist: ['example.com', 'b.co'] }, { host_whitelist: ['example.com'] },
  { blacklisted_chars: 'a' }, { require_display_name: true }, { domain_specific_validation: true }, { host_blacklist: null }, 'not options',
];

/** `@IsDateString`/`@IsISO8601` options, `null` (on which validator.js throws) included. */
const DATE_OPTIONS: readonly unknown[] = [undefined, {}, { strict: true }, { strict: true, strictSeparator: true }, { strictSeparator: true }, null];

/** The length rules' bounds, numbers or not. */
const LENGTH_BOUNDS: ReadonlyArray<readonly [unknown, unknown]> = [[0, 3], [1, 1], [2, undefined], [undefined, 2], [Number.NaN, 2], [null, 3], ['1', '3'], [2, 1]];

/** Each variant gets its own copy of object options: validator.js writes its defaults into the object it is given. */
const copy = (options: unknown): unknown => (options !== null && typeof options === 'object' ? { ...options } : options);

const emailVariants: readonly Variant[] = EMAIL_OPTIONS.map((options) => {
  const own = copy(options);
  const theirs = copy(options);
  return { label: `isEmail(${JSON.stringify(options)})`, name: 'isEmail', constraints: [own], library: (v) => cv.isEmail(v, theirs as never) };
});

const dateVariants: readonly Variant[] = DATE_OPTIONS.flatMap((options) => [
  { label: `isDateString(${JSON.stringify(options)})`, name: 'isDateString', constraints: [copy(options)], library: (v: unknown) => cv.isDateString(v, copy(options) as never) },
  { label: `isIso8601(${JSON.stringify(options)})`, name: 'isIso8601', constraints: [copy(options)], library: (v: unknown) => cv.isISO8601(v, copy(options) as never) },
]);

const lengthVariants: readonly Variant[] = LENGTH_BOUNDS.flatMap(([lo, hi]) => [
  { label: `isLength(${String(lo)}, ${String(hi)})`, name: 'isLength', constraints: [lo, hi], library: (v: unknown) => cv.length(v, lo as number, hi as number) },
  { label: `minLength(${String(lo)})`, name: 'minLength', constraints: [lo], library: (v: unknown) => cv.minLength(v, lo as number) },
  { label: `maxLength(${String(hi)})`, name: 'maxLength', constraints: [hi], library: (v: unknown) => cv.maxLength(v, hi as number) },
]);

/** Asserts the bound rules answer as the library on `values`; returns how many strings the quick check accepted. */
function agreeOn(variants: readonly Variant[], values: fc.Arbitrary<unknown>, quick: (value: string) => boolean): number {
  const bound = variants.map((v) => ({ ...v, rule: builtInRule(v.name, v.constraints)! }));
  let quicklyAccepted = 0;
  fc.assert(
    fc.property(values, (value) => {
      for (const { label, rule, library } of bound) {
        expect(answer(rule, value), `${label} on ${JSON.stringify(value)}`).to.equal(answer(library, value));
      }
      if (typeof value === 'string' && quick(value)) quicklyAccepted += 1;
    }),
    { numRuns: RUNS, seed: SEED },
  );
  return quicklyAccepted;
}

const otherValues = fc.constantFrom<unknown>(undefined, null, 1, true, {}, [], ['a@b.co'], new String('a@b.co'), Symbol('s'));

describe('plain format checks (differential, against validator.js through class-validator)', function () {
  this.timeout(120_000);

  it('@IsEmail answers as validator.js for every option set, on addresses at its edges', () => {
    const accepted = agreeOn(emailVariants, fc.oneof({ arbitrary: emailLike, weight: 20 }, { arbitrary: otherValues, weight: 1 }), plainEmailCheck(undefined)!);
    // A spec that cannot fail proves nothing: a good share of the addresses must take the quick path.
    expect(accepted, 'addresses the quick check accepted').to.be.greaterThan(RUNS * 0.15);
  });

  for (const tz of ['UTC', 'America/Los_Angeles', 'Pacific/Kiritimati', 'Asia/Kolkata']) {
    it(`@IsDateString and @IsISO8601 answer as validator.js for every option set, in ${tz}`, () => {
      const before = process.env.TZ;
      process.env.TZ = tz; // validator.js's strict check builds a Date; for some strings it is read in local time
      try {
        const accepted = agreeOn(dateVariants, fc.oneof({ arbitrary: dateLike, weight: 20 }, { arbitrary: otherValues, weight: 1 }), calendarDateCheck(undefined)!);
        expect(accepted, 'dates the quick check accepted').to.be.greaterThan(RUNS * 0.2);
      } finally {
        if (before === undefined) delete process.env.TZ;
        else process.env.TZ = before;
      }
    });
  }

  it('@Length, @MinLength and @MaxLength answer as validator.js, surrogates and variation selectors included', () => {
    const accepted = agreeOn(lengthVariants, fc.oneof({ arbitrary: lengthLike, weight: 20 }, { arbitrary: otherValues, weight: 1 }), plainLengthCheck(0, 3)!);
    expect(accepted, 'strings the quick check accepted').to.be.greaterThan(RUNS * 0.2);
  });

  describe('plainEmailCheck', () => {
    it('has no quick answer under options that can refuse a plain address', () => {
      for (const options of [{ host_blacklist: ['a.co'] }, { host_whitelist: ['a.co'] }, { blacklisted_chars: 'x' }, { require_display_name: true }, { domain_specific_validation: true }, { host_blacklist: null }]) {
        expect(plainEmailCheck(options), JSON.stringify(options)).to.equal(undefined);
      }
    });

    it('accepts a plain address and leaves the rest to the library', () => {
      const quick = plainEmailCheck(undefined)!;
      expect(['ada@example.com', 'a.b+c@x-y.io', `${'a'.repeat(64)}@b.co`].map(quick)).to.deep.equal([true, true, true]);
      expect(['"a b"@example.com', 'a@[127.0.0.1]', 'ü@example.com', `${'a'.repeat(65)}@b.co`, `a@${'b'.repeat(64)}.co`, 'a@b_c.co', 'a..b@c.co', 'a@-b.co', 'a@b.c0m', 'a@b']
        .map(quick)).to.deep.equal(Array(10).fill(false));
    });
  });

  describe('calendarDateCheck', () => {
    it('accepts real calendar dates from year 1000 and leaves the rest to the library', () => {
      const quick = calendarDateCheck({ strict: true })!;
      expect(['2024-02-29', '2000-02-29', '1000-01-01', '9999-12-31', '1815-12-10'].map(quick)).to.deep.equal([true, true, true, true, true]);
      expect(['1900-02-29', '2023-02-29', '2020-04-31', '0999-01-01', '0000-01-01', '2020-00-10', '2020-13-01', '2020-001', '2020-W01-1', '20200101', '2020-01-01T00:00Z']
        .map(quick)).to.deep.equal(Array(11).fill(false));
    });

    it('has no quick answer for null options, on which validator.js throws', () => {
      expect(calendarDateCheck(null)).to.equal(undefined);
    });
  });
});
