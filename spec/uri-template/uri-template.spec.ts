import { expect } from 'chai';
import { PhantomError } from '../../lib/core/errors';
import { parseUriTemplate, type TemplateParams } from '../../lib/uri-template/uri-template';

describe('parseUriTemplate', () => {
  context('when the template is well formed', () => {
    it('lists the variables in order of appearance', () => {
      const template = parseUriTemplate('https://api.example.com/{org}/users/{id}{/path*}{?fields,page}{#frag}');
      expect(template.variables).to.deep.equal(['org', 'id', 'path', 'fields', 'page', 'frag']);
    });

    it('keeps the source as written', () => {
      expect(parseUriTemplate('file:///{+path}').source).to.equal('file:///{+path}');
    });

    it('says whether there is an expression at all', () => {
      expect(parseUriTemplate('users://{id}').isTemplate).to.equal(true);
      expect(parseUriTemplate('users://admin/profile').isTemplate).to.equal(false);
    });

    it('accepts every level 1 to 3 operator, explode and prefix modifiers', () => {
      const template = parseUriTemplate('x://{a}{+b}{#c}{.d}{/e*}{;f}{g:3}{?h,i*}{&j}');
      expect(template.variables).to.deep.equal(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j']);
    });

    it('accepts dotted and percent-encoded variable names', () => {
      expect(parseUriTemplate('x://{user.id}/{a%20b}').variables).to.deep.equal(['user.id', 'a%20b']);
    });
  });

  context('when the template is malformed', () => {
    const cases: Array<[string, string, RegExp]> = [
      ['an unclosed brace', 'test://{id', /unclosed '\{' at position 7/],
      ['a stray closing brace', 'test://id}', /'\}' at position 9 closes no expression/],
      ['a nested brace', 'test://{a{b}}', /opens inside the expression/],
      ['an empty expression', 'test://{}', /empty expression at position 7/],
      ['an operator with no variable', 'test://{+}', /bad variable name ""/],
      ['a dash in a name', 'test://{user-id}', /bad variable name "user-id"/],
      ['a space in a name', 'test://{user id}', /bad variable name "user id"/],
      ['a leading dot', 'test://{.}', /bad variable name ""/],
      ['a double dot', 'test://{a..b}', /bad variable name "a..b"/],
      ['an empty name in a list', 'test://{a,}', /bad variable name ""/],
      ['the reserved operator =', 'test://{=x}', /operator '=' .* reserved/],
      ['the reserved operator !', 'test://{!x}', /operator '!' .* reserved/],
      ['the reserved operator |', 'test://{|x}', /operator '\|' .* reserved/],
      ['the reserved operator @', 'test://{@x}', /operator '@' .* reserved/],
      ['a zero prefix', 'test://{x:0}', /bad modifier on "x"/],
      ['a five-digit prefix', 'test://{x:10000}', /bad modifier on "x"/],
      ['a prefix and an explode', 'test://{x:3*}', /bad modifier on "x"/],
      ['a variable used twice', 'test://{x}/{x}', /variable "x" appears more than once/],
      ['a query expression before a path', 'test://{?q}/more', /query expression .* followed only by/],
    ];
    for (const [what, source, problem] of cases) {
      it(`rejects ${what} (${source})`, () => {
        expect(() => parseUriTemplate(source))
          .to.throw(PhantomError, problem)
          .that.satisfies((error: PhantomError) => error.code === 'uri_template_invalid' && error.message.includes(`"${source}"`));
      });
    }

    it('allows query expressions followed by more of them and a final fragment', () => {
      expect(parseUriTemplate('x://{id}{?a}{&b}{#c}').variables).to.deep.equal(['id', 'a', 'b', 'c']);
    });
  });
});

describe('UriTemplate', () => {
  describe('#expand', () => {
    // The variables and expected results of RFC 6570 section 3.2.
    const params: Partial<TemplateParams> = {
      var: 'value', hello: 'Hello World!', half: '50%', empty: '', path: '/foo/bar', x: '1024', y: '768',
      list: ['red', 'green', 'blue'], base: 'http://example.com/home/', nothing: [],
    };
    const expand = (source: string, values: Partial<TemplateParams> = params) => parseUriTemplate(source).expand(values);

    const table: Record<string, Array<[string, string]>> = {
      'simple {var}': [['{var}', 'value'], ['{hello}', 'Hello%20World%21'], ['{half}', '50%25'], ['map?{x,y}', 'map?1024,768']],
      'reserved {+var}': [
        ['{+var}', 'value'], ['{+hello}', 'Hello%20World!'], ['{+path}/here', '/foo/bar/here'], ['{+base}index', 'http://example.com/home/index'],
        ['{+x,hello,y}', '1024,Hello%20World!,768'],
      ],
      'fragment {#var}': [['X{#var}', 'X#value'], ['{#hello}', '#Hello%20World!'], ['{#path,x}/here', '#/foo/bar,1024/here']],
      'label {.var}': [['X{.var}', 'X.value'], ['X{.x,y}', 'X.1024.768'], ['X{.list*}', 'X.red.green.blue']],
      'path {/var}': [['{/var}', '/value'], ['{/var,x}/here', '/value/1024/here'], ['{/list*}', '/red/green/blue']],
      'path-style {;var}': [['{;x,y}', ';x=1024;y=768'], ['{;x,y,empty}', ';x=1024;y=768;empty'], ['{;list*}', ';list=red;list=green;list=blue']],
      'query {?var}': [['{?x,y}', '?x=1024&y=768'], ['{?x,y,empty}', '?x=1024&y=768&empty='], ['{?list}', '?list=red,green,blue'], ['{?list*}', '?list=red&list=green&list=blue']],
      'continuation {&var}': [['?fixed=yes{&x}', '?fixed=yes&x=1024'], ['{&x,y,empty}', '&x=1024&y=768&empty=']],
      'prefix {var:n}': [['{var:3}', 'val'], ['{var:30}', 'value'], ['{/list*,path:4}', '/red/green/blue/%2Ffoo']],
      'lists': [['{list}', 'red,green,blue'], ['{list*}', 'red,green,blue'], ['{#list*}', '#red,green,blue']],
      'undefined values': [['{undef}', ''], ['{?undef,x}', '?x=1024'], ['{/nothing*}', ''], ['a{.undef}b', 'ab']],
    };
    for (const [kind, rows] of Object.entries(table)) {
      context(`when the template uses ${kind}`, () => {
        for (const [source, expected] of rows) {
          it(`expands ${source} to ${expected || '""'}`, () => expect(expand(source)).to.equal(expected));
        }
      });
    }

    context('when values are not ASCII', () => {
      it('percent-encodes them as UTF-8', () => {
        expect(expand('x://{name}', { name: 'café ✓' })).to.equal('x://caf%C3%A9%20%E2%9C%93');
      });

      it('counts prefix lengths in characters, not UTF-16 units', () => {
        expect(expand('{s:2}', { s: '😀😀😀' })).to.equal('%F0%9F%98%80%F0%9F%98%80');
      });
    });

    context('when a variable is named like an Object.prototype member', () => {
      it('treats it as undefined unless the params own it', () => {
        expect(expand('x://{constructor}{?toString}', {})).to.equal('x://');
        expect(expand('x://{constructor}', { ['constructor']: 'c' })).to.equal('x://c');
      });
    });

    context('when a reserved value already holds %XX escapes', () => {
      it('keeps them instead of encoding the % again', () => {
        expect(expand('{+p}', { p: 'a%20b%zz' })).to.equal('a%20b%25zz');
      });
    });
  });
});
