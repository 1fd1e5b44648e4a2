import { expect } from 'chai';
import fc from 'fast-check';
import { TemplateMatcher } from '../../lib/uri-template/template-matcher';
import { parseUriTemplate } from '../../lib/uri-template/uri-template';

/**
 * Characters a value may hold: unreserved ones, every reserved one, and some outside the URI
 * grammar. Not '.', which is unreserved and so stays raw where it also separates labels: a
 * `{.x}` holding one cannot be told from two labels, whatever the matcher.
 */
const CHARACTERS = [...'aZ09-_~', ...":/?#[]@!$&'()*+,;=", ' ', '%', 'é', '✓', '\u{1F600}'];
const value = (minLength: number) => fc.string({ unit: fc.constantFrom(...CHARACTERS), minLength, maxLength: 8 });

/** Expressions that may come first (a `{+..}` or `{#..}` would take the rest of the URI). */
const FIRST = ['', '.', '/', ';'] as const;
/** Expressions that may follow. */
const SECOND = ['.', '/', ';', '?'] as const;

/**
 * Pairs whose expansions collide whatever the matcher does: a `{/x}` or `{;x}` value may hold a
 * raw '.', so `/a.b` is x = `a.b` as well as x = `a`, y = `b` (the matcher takes the first).
 */
const AMBIGUOUS = new Set(['/.', ';.']);

describe('TemplateMatcher', () => {
  describe('#match', () => {
    for (const first of FIRST) {
      for (const second of SECOND) {
        if (AMBIGUOUS.has(first + second)) continue;
        const source = `t://v{${first}x}{${second}y}`;
        context(`when the URI was expanded from ${source}`, () => {
          it('binds back the values it was expanded from', () => {
            const template = parseUriTemplate(source);
            const matcher = new TemplateMatcher<string>();
            matcher.add(template, source);
            // A `{x}` needs a character to match; the prefixed expressions write theirs.
            fc.assert(fc.property(value(first === '' ? 1 : 0), value(0), (x, y) => {
              const uri = template.expand({ x, y });
              expect(matcher.match(uri)?.params, uri).to.deep.equal({ x, y });
            }), { numRuns: 300 });
          });
        });
      }
    }

    context('when the URI was expanded from t://v{/xs*}{;y}', () => {
      it('binds back the list and the parameter', () => {
        const template = parseUriTemplate('t://v{/xs*}{;y}');
        const matcher = new TemplateMatcher<string>();
        matcher.add(template, 't://v{/xs*}{;y}');
        fc.assert(fc.property(fc.array(value(0), { minLength: 1, maxLength: 4 }), value(0), (xs, y) => {
          const uri = template.expand({ xs, y });
          expect(matcher.match(uri)?.params, uri).to.deep.equal({ xs, y });
        }), { numRuns: 300 });
      });
    });
  });
});
