/**
 * Quick "yes" answers for the validator.js rules a typical DTO carries (`@IsEmail`,
 * `@IsDateString`/`@IsISO8601`, the length rules), on the plain forms most input takes. Each
 * check accepts only strings validator.js provably accepts with the same options, and says
 * nothing about the rest: the caller then asks validator.js, so every verdict stays the
 * library's. What is saved is the library's per-call work: merging its options objects, two
 * `encodeURI` + `split` byte counts, a dozen regular expressions and a `Date` per value.
 */

/** A check that only ever answers "accepted": `false` means "ask validator.js". */
export type PlainCheck = (text: string) => boolean;

/** Characters of an unquoted local part, as validator.js's `emailUserPart` lists them (ASCII only). */
const LOCAL_ATOM = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+";
/** A host label of letters, digits and inner hyphens, 1 to 63 characters; then an alphabetic TLD. */
const HOST = '(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)+[A-Za-z]{2,63}';
const PLAIN_EMAIL = new RegExp(`^${LOCAL_ATOM}(?:\\.${LOCAL_ATOM})*@${HOST}$`);

/** validator.js's limits: the whole address, and the local part in bytes (ASCII here, so characters). */
const MAX_EMAIL_LENGTH = 254;
const MAX_LOCAL_LENGTH = 64;

/**
 * `local@host.tld` in ASCII within validator.js's length limits: dot-separated atoms, labels that
 * neither start nor end with a hyphen, no underscore in the host, an alphabetic TLD. Quoted local
 * parts, IP hosts, display names and non-ASCII text are left to the library.
 */
const plainEmail: PlainCheck = (text) => {
  if (text.length > MAX_EMAIL_LENGTH) return false;
  const at = text.indexOf('@');
  return at > 0 && at <= MAX_LOCAL_LENGTH && PLAIN_EMAIL.test(text);
};

/** validator.js's `isEmail` defaults for the options that can refuse an address `plainEmail` accepts. */
const EMAIL_DEFAULTS: Readonly<Record<string, unknown>> = Object.freeze({
  require_display_name: false, host_blacklist: [], host_whitelist: [], domain_specific_validation: false, blacklisted_chars: '',
});

/**
 * The plain-address check for `@IsEmail(options)`, or `undefined` when the options can refuse a
 * plain address (a host list, blacklisted characters, a required display name, the Gmail rules).
 * The other options only widen what validator.js accepts, so a plain address passes under any
 * of them. Options are read once, here: validator.js reads them per call, filling in its
 * defaults for keys left `undefined` (a non-object counts as no options).
 */
export function plainEmailCheck(options: unknown): PlainCheck | undefined {
  const given = options !== null && typeof options === 'object' ? (options as Record<string, unknown>) : {};
  const effective = (key: string) => (given[key] === undefined ? EMAIL_DEFAULTS[key] : given[key]);
  const narrows = !!effective('require_display_name') || !isEmptyList(effective('host_blacklist')) || !isEmptyList(effective('host_whitelist'))
    || !!effective('domain_specific_validation') || !!effective('blacklisted_chars');
  return narrows ? undefined : plainEmail;
}

/** validator.js reads `.length` of a host list; anything but an empty array may refuse (or throw). */
function isEmptyList(value: unknown): boolean {
  return Array.isArray(value) && value.length === 0;
}

const DASH = 45;
const ZERO = 48;

/** Days in each month of a common year; February gains one in a leap year. */
const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * A calendar date written `YYYY-MM-DD`, year 1000 to 9999, checked by month lengths and the
 * Gregorian leap years: validator.js's ISO 8601 pattern accepts it, and its `strict` check
 * builds the same `YYYY-MM-DD` (parsed as UTC) and finds the same day. Years below 1000 are left
 * to the library: it rebuilds them without their leading zeros, which `Date` reads another way.
 */
const calendarDate: PlainCheck = (text) => {
  if (text.length !== 10 || text.charCodeAt(4) !== DASH || text.charCodeAt(7) !== DASH) return false;
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 7);
  const day = digits(text, 8, 10);
  if (year < 1000 || month < 1 || month > 12 || day < 1) return false;
  return day <= MONTH_DAYS[month - 1] || (month === 2 && day === 29 && isLeapYear(year));
};

/** The number the decimal digits `text[from..to)` spell, or -1 if any is not a digit. */
function digits(text: string, from: number, to: number): number {
  let value = 0;
  for (let i = from; i < to; i++) {
    const digit = text.charCodeAt(i) - ZERO;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/**
 * The calendar-date check for `@IsDateString(options)`/`@IsISO8601(options)`. A real calendar
 * date passes with or without `strict` (the pattern alone is laxer), and `strictSeparator` only
 * concerns a time part. `undefined` for `null` options, on which validator.js throws.
 */
export function calendarDateCheck(options: unknown): PlainCheck | undefined {
  return options === null ? undefined : calendarDate;
}

/**
 * Code units validator.js's `isLength` does not count as characters of their own: surrogates
 * (a pair counts once) and the variation selectors U+FE0E and U+FE0F (counted with the
 * character before them). A string without any has as many characters as code units.
 */
const UNCOUNTED_UNITS = /[\uD800-\uDFFF\uFE0E\uFE0F]/;

/**
 * The length check validator.js's `isLength({ min, max })` makes, for strings whose length is
 * their `.length`; `undefined` for bounds that are not numbers (validator.js compares those with
 * coercions this does not repeat).
 */
export function plainLengthCheck(min: unknown, max: unknown): PlainCheck | undefined {
  if ((min !== undefined && typeof min !== 'number') || (max !== undefined && typeof max !== 'number')) return undefined;
  const lowest = min || 0;
  return (text) => text.length >= lowest && (max === undefined || text.length <= max) && !UNCOUNTED_UNITS.test(text);
}
