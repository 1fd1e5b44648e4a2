import fc from 'fast-check';

/**
 * Strings shaped like e-mail addresses and ISO 8601 dates, mostly near the edges of what
 * validator.js accepts: the inputs that test the compiled validator's quick answers for
 * `@IsEmail`, `@IsDateString`/`@IsISO8601` and the length rules against the library itself.
 */

const ATOM_CHARS = [...'abcxyzABZ019', ...'!#$%&\'*+/=?^_`{|}~-'];
const OTHER_LOCAL_CHARS = ['.', '"', '\\', ' ', '(', ')', ',', ':', ';', '<', '>', '[', ']', '@', 'é', 'ü', '中', '😀', '\u00a0', '\t', '\n'];

const atom = fc.array(fc.constantFrom(...ATOM_CHARS), { minLength: 1, maxLength: 8 }).map((cs) => cs.join(''));

/** Local parts: dot-atoms, their broken forms, quoted strings, unicode, and lengths around 64. */
const localPart: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.array(atom, { minLength: 1, maxLength: 3 }).map((atoms) => atoms.join('.')), weight: 8 },
  { arbitrary: fc.tuple(atom, fc.constantFrom('.', '..', '')).map(([a, dot]) => `${dot}${a}${dot}`), weight: 1 },
  { arbitrary: fc.array(fc.constantFrom(...ATOM_CHARS, ...OTHER_LOCAL_CHARS), { minLength: 0, maxLength: 10 }).map((cs) => cs.join('')), weight: 2 },
  { arbitrary: fc.constantFrom('"a b"', '"a\\"b"', '"a@b"', '""', '"é"', '"\\\\"', '"a"b"', 'ü', 'Jöe', 'user+tag', 'a.b', '中文'), weight: 2 },
  { arbitrary: fc.tuple(fc.integer({ min: 62, max: 66 }), fc.constantFrom('a', 'é', '%')).map(([n, c]) => c.repeat(n)), weight: 1 },
);

const LABEL_CHARS = [...'abcxyzABZ0129', '-', '-', '_'];

const label = fc.array(fc.constantFrom(...LABEL_CHARS), { minLength: 1, maxLength: 10 }).map((cs) => cs.join(''));

/** Top-level labels: alphabetic ones, and the forms validator.js's TLD rule treats apart. */
const tld = fc.oneof(
  { arbitrary: fc.constantFrom('com', 'co', 'io', 'Org', 'museum', 'x', 'c0m', '123', 'xn--p1ai', 'xn--', 'co-', 'ü', 'рф', 'ｃｏｍ', '', 'c_m'), weight: 1 },
  { arbitrary: fc.stringMatching(/^[a-z]{2,5}$/), weight: 3 },
);

/** Hosts: dotted names, IP literals, long labels and addresses, unicode and full-width labels, trailing dots. */
const host: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.tuple(fc.array(label, { minLength: 1, maxLength: 3 }), tld).map(([labels, top]) => [...labels, top].join('.')), weight: 8 },
  { arbitrary: fc.constantFrom('[127.0.0.1]', '127.0.0.1', '[IPv6:::1]', '[::1]', '[300.1.1.1]', 'localhost', 'example.com.', '.example.com', 'ex..com', 'bücher.de', 'ｅｘａｍｐｌｅ.com', 'a_b.com', '-a.com', 'a-.com', 'gmail.com', 'googlemail.com'), weight: 2 },
  { arbitrary: fc.tuple(fc.integer({ min: 61, max: 65 }), tld).map(([n, top]) => `${'a'.repeat(n)}.${top}`), weight: 1 },
  { arbitrary: fc.tuple(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 40, max: 63 })).map(([count, n]) => `${Array.from({ length: count }, () => 'b'.repeat(n)).join('.')}.com`), weight: 1 },
);

/** Addresses: one `@` mostly, sometimes none or two, sometimes with a display name or spaces around. */
export const emailLike: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.tuple(localPart, host).map(([local, domain]) => `${local}@${domain}`), weight: 12 },
  { arbitrary: fc.tuple(localPart, host, host).map(([local, a, b]) => `${local}@${a}@${b}`), weight: 1 },
  { arbitrary: fc.tuple(localPart, host).map(([local, domain]) => `${local}${domain}`), weight: 1 },
  { arbitrary: fc.tuple(localPart, host, fc.constantFrom('Ada <', ' ', '\n', '<')).map(([local, domain, around]) => `${around}${local}@${domain}${around === 'Ada <' || around === '<' ? '>' : around}`), weight: 1 },
  { arbitrary: fc.constantFrom('a@b.co', 'ada@example.com', 'A.B+c@EXAMPLE.com', 'x@y', 'x@y.z', '@example.com', 'a@', '', 'a@b.c0m'), weight: 1 },
);

const pad = (n: number, width: number) => String(n).padStart(width, '0');

/** Years where the leap-year rule has something to say, the edges of four digits, and any other. */
const year = fc.oneof(
  { arbitrary: fc.constantFrom(0, 1, 4, 100, 400, 999, 1000, 1500, 1582, 1600, 1700, 1900, 2000, 2023, 2024, 2100, 2400, 9999), weight: 2 },
  { arbitrary: fc.integer({ min: 0, max: 9999 }), weight: 3 },
);

const month = fc.oneof({ arbitrary: fc.integer({ min: 1, max: 12 }), weight: 6 }, { arbitrary: fc.constantFrom(0, 13, 99), weight: 1 });
const day = fc.oneof({ arbitrary: fc.constantFrom(1, 28, 29, 30, 31), weight: 4 }, { arbitrary: fc.integer({ min: 0, max: 32 }), weight: 3 }, { arbitrary: fc.constant(99), weight: 1 });

/** A calendar date `YYYY-MM-DD` (or not quite), and the other ISO 8601 forms next to it. */
export const dateLike: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.tuple(year, month, day).map(([y, m, d]) => `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`), weight: 12 },
  { arbitrary: fc.tuple(year, month, day).map(([y, m, d]) => `${pad(y, 4)}${pad(m, 2)}${pad(d, 2)}`), weight: 1 },
  { arbitrary: fc.tuple(year, fc.integer({ min: 0, max: 367 })).map(([y, d]) => `${pad(y, 4)}-${pad(d, 3)}`), weight: 1 },
  { arbitrary: fc.tuple(year, fc.integer({ min: 0, max: 54 }), fc.integer({ min: 0, max: 8 })).map(([y, w, d]) => `${pad(y, 4)}-W${pad(w, 2)}-${d}`), weight: 1 },
  { arbitrary: fc.tuple(year, month, day, fc.constantFrom('T10:00:00Z', 'T24:00', ' 10:00', 't10:00', 'T10:00:00+14:00', '\n', ' ', 'Z')).map(([y, m, d, rest]) => `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}${rest}`), weight: 2 },
  { arbitrary: fc.tuple(fc.constantFrom('+', '-', '+00', ' '), year, month, day).map(([sign, y, m, d]) => `${sign}${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`), weight: 1 },
  { arbitrary: fc.tuple(year, month, day).map(([y, m, d]) => `${y}-${m}-${d}`), weight: 1 },
  { arbitrary: fc.constantFrom('2020-02-29', '2019-02-29', '1900-02-29', '2000-02-29', '0000-02-29', '0000-01-01', '1815-12-10', '2020-12-31', '2020-11-31', '٢٠٢٠-٠١-٠١', '2020-01-01\n'), weight: 1 },
);

/** Strings for the length rules: plain text, and text with surrogate pairs, lone surrogates and variation selectors. */
export const lengthLike: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.string({ maxLength: 6 }), weight: 4 },
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 4 }), weight: 2 },
  { arbitrary: fc.array(fc.constantFrom('a', 'é', '😀', '\uD800', '\uDC00', '\uFE0F', '\uFE0E', '❤'), { maxLength: 6 }).map((cs) => cs.join('')), weight: 3 },
);
