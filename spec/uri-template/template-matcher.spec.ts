import { expect } from 'chai';
import { PhantomError } from '../../lib/core/errors';
import { TemplateMatcher } from '../../lib/uri-template/template-matcher';
import { parseUriTemplate, type TemplateParams } from '../../lib/uri-template/uri-template';

/** A matcher whose values are the template sources, registered in the order given. */
function matcherOf(...sources: string[]): TemplateMatcher<string> {
  const matcher = new TemplateMatcher<string>();
  for (const source of sources) matcher.add(parseUriTemplate(source), source);
  return matcher;
}

/** What a URI resolves to, as [template, params], or undefined. */
function resolve(matcher: TemplateMatcher<string>, uri: string): [string, TemplateParams] | undefined {
  const match = matcher.match(uri);
  return match && [match.value, match.params];
}

describe('TemplateMatcher', () => {
  describe('#match', () => {
    context('when the template uses a simple {var}', () => {
      const matcher = matcherOf('test://template/{id}/data', 'files://{name}.txt', 'pair://{a}.{b}', 'xy://{x,y}', 'list://{tags*}');

      it('binds one segment between the literals', () => {
        expect(resolve(matcher, 'test://template/42/data')).to.deep.equal(['test://template/{id}/data', { id: '42' }]);
      });

      it('needs at least one character', () => {
        expect(matcher.match('test://template//data')).to.equal(undefined);
      });

      it('does not span "/", "?" or "#"', () => {
        for (const uri of ['test://template/a/b/data', 'test://template/a?b/data', 'test://template/a#b/data']) {
          expect(matcher.match(uri), uri).to.equal(undefined);
        }
      });

      it('requires the scheme and host to match', () => {
        expect(matcher.match('other://template/42/data')).to.equal(undefined);
        expect(matcher.match('test://templates/42/data')).to.equal(undefined);
      });

      it('runs up to the literal that completes the match', () => {
        expect(resolve(matcher, 'files://a.b.txt')).to.deep.equal(['files://{name}.txt', { name: 'a.b' }]);
      });

      it('stops at the first fitting literal when two variables could share the text', () => {
        expect(resolve(matcher, 'pair://x.y.z')).to.deep.equal(['pair://{a}.{b}', { a: 'x', b: 'y.z' }]);
      });

      it('binds {x,y} by position, leaving a missing one out', () => {
        expect(resolve(matcher, 'xy://1024,768')).to.deep.equal(['xy://{x,y}', { x: '1024', y: '768' }]);
        expect(resolve(matcher, 'xy://1024')).to.deep.equal(['xy://{x,y}', { x: '1024' }]);
      });

      it('binds an exploded {list*} as an array', () => {
        expect(resolve(matcher, 'list://a,b,c')).to.deep.equal(['list://{tags*}', { tags: ['a', 'b', 'c'] }]);
      });
    });

    context('when the template uses a reserved {+var}', () => {
      const matcher = matcherOf('file:///{+path}', 'docs://{+path}/edit');

      it('spans "/" characters', () => {
        expect(resolve(matcher, 'file:///home/user/notes.md')).to.deep.equal(['file:///{+path}', { path: 'home/user/notes.md' }]);
      });

      it('takes "?" and "#" too when the template declares no query or fragment', () => {
        expect(resolve(matcher, 'file:///a.txt?v=2#top')).to.deep.equal(['file:///{+path}', { path: 'a.txt?v=2#top' }]);
      });

      it('leaves the trailing literal to the template', () => {
        expect(resolve(matcher, 'docs://guides/intro/edit')).to.deep.equal(['docs://{+path}/edit', { path: 'guides/intro' }]);
      });
    });

    context('when the template uses a fragment {#var}', () => {
      const matcher = matcherOf('doc://page{#section}', 'doc://pair{#x,y}');

      it('binds the text after "#"', () => {
        expect(resolve(matcher, 'doc://page#intro/part-1')).to.deep.equal(['doc://page{#section}', { section: 'intro/part-1' }]);
      });

      it('matches without a fragment, as RFC 6570 expands an undefined one to nothing', () => {
        expect(resolve(matcher, 'doc://page')).to.deep.equal(['doc://page{#section}', {}]);
      });

      it('splits {#x,y} on ","', () => {
        expect(resolve(matcher, 'doc://pair#1,2')).to.deep.equal(['doc://pair{#x,y}', { x: '1', y: '2' }]);
      });
    });

    context('when the template uses path segments {/var} and {/var*}', () => {
      const matcher = matcherOf('seg://one{/a}', 'seg://two{/a,b}', 'seg://many{/parts*}');

      it('binds {/var} to one segment', () => {
        expect(resolve(matcher, 'seg://one/x')).to.deep.equal(['seg://one{/a}', { a: 'x' }]);
        expect(matcher.match('seg://one/x/y')).to.equal(undefined);
      });

      it('binds {/a,b} to consecutive segments, each optional', () => {
        expect(resolve(matcher, 'seg://two/x/y')).to.deep.equal(['seg://two{/a,b}', { a: 'x', b: 'y' }]);
        expect(resolve(matcher, 'seg://two/x')).to.deep.equal(['seg://two{/a,b}', { a: 'x' }]);
      });

      it('binds {/var*} to an array of segments', () => {
        expect(resolve(matcher, 'seg://many/a/b/c')).to.deep.equal(['seg://many{/parts*}', { parts: ['a', 'b', 'c'] }]);
      });

      it('leaves {/var*} out when there is no segment', () => {
        expect(resolve(matcher, 'seg://many')).to.deep.equal(['seg://many{/parts*}', {}]);
      });
    });

    context('when the template uses a label {.var}', () => {
      const matcher = matcherOf('f://{name}{.ext}', 'host://www{.domain*}');

      it('binds the last dot-separated label', () => {
        expect(resolve(matcher, 'f://report.json')).to.deep.equal(['f://{name}{.ext}', { name: 'report', ext: 'json' }]);
        expect(resolve(matcher, 'f://archive.tar.gz')).to.deep.equal(['f://{name}{.ext}', { name: 'archive.tar', ext: 'gz' }]);
      });

      it('leaves the label out when there is none', () => {
        expect(resolve(matcher, 'f://README')).to.deep.equal(['f://{name}{.ext}', { name: 'README' }]);
      });

      it('binds an exploded {.var*} as an array', () => {
        expect(resolve(matcher, 'host://www.example.com')).to.deep.equal(['host://www{.domain*}', { domain: ['example', 'com'] }]);
      });
    });

    context('when the template uses path-style parameters {;var}', () => {
      const matcher = matcherOf('m://map{;x,y}');

      it('binds name=value parts in template order, each optional', () => {
        expect(resolve(matcher, 'm://map;x=1;y=2')).to.deep.equal(['m://map{;x,y}', { x: '1', y: '2' }]);
        expect(resolve(matcher, 'm://map;y=2')).to.deep.equal(['m://map{;x,y}', { y: '2' }]);
        expect(resolve(matcher, 'm://map;x')).to.deep.equal(['m://map{;x,y}', { x: '' }]);
      });

      it('rejects a name the template does not declare', () => {
        expect(matcher.match('m://map;z=1')).to.equal(undefined);
      });
    });

    context('when an expression is followed by path-style parameters {;var}', () => {
      const matcher = matcherOf('l://a{.x}{;y}', 'p://a{/p}{;q}', 's://{v}{;w}');

      it('ends {.x} at the ";", which its expansion always encodes', () => {
        expect(resolve(matcher, 'l://a.x1;y=2')).to.deep.equal(['l://a{.x}{;y}', { x: 'x1', y: '2' }]);
      });

      it('ends {/p} at the ";"', () => {
        expect(resolve(matcher, 'p://a/p1;q=2')).to.deep.equal(['p://a{/p}{;q}', { p: 'p1', q: '2' }]);
      });

      it('ends {v} at the ";"', () => {
        expect(resolve(matcher, 's://v1;w=2')).to.deep.equal(['s://{v}{;w}', { v: 'v1', w: '2' }]);
      });

      it('binds the encoded characters inside a value', () => {
        expect(resolve(matcher, 'l://a.x%3B1;y=%3D')).to.deep.equal(['l://a{.x}{;y}', { x: 'x;1', y: '=' }]);
      });
    });

    context('when a value holds a reserved character raw', () => {
      const matcher = matcherOf('test://template/{id}/data', 'seg://s{/p}', 'f://{name}{.ext}', 'm://v{;y}');

      it('does not match: {var}, {/var}, {.var} and {;var} expansions percent-encode it', () => {
        for (const uri of ['test://template/a:b/data', 'test://template/a;b/data', 'test://template/a=b/data', 'test://template/a@b/data', 'seg://s/a&b', 'f://a.b+c', 'm://v;y=a&b', 'm://v;y=a:b']) {
          expect(matcher.match(uri), uri).to.equal(undefined);
        }
      });

      it('still binds a {;var} parameter whose value is encoded', () => {
        expect(resolve(matcher, 'm://v;y=a%26b')).to.deep.equal(['m://v{;y}', { y: 'a&b' }]);
      });

      it('still matches the characters encodeURIComponent leaves as they are', () => {
        expect(resolve(matcher, "test://template/it's(1)!*/data")).to.deep.equal(['test://template/{id}/data', { id: "it's(1)!*" }]);
      });
    });

    context('when the template has query expressions {?q} and {&q}', () => {
      const matcher = matcherOf(
        'https://api.example.com/users/{id}{?fields}', 'search://{?q,page}', 'list://items?sort=asc{&page}',
        'tags://all{?tag*}', 'doc://{id}{?lang}{#section}',
      );

      it('binds the query parameter', () => {
        expect(resolve(matcher, 'https://api.example.com/users/7?fields=name'))
          .to.deep.equal(['https://api.example.com/users/{id}{?fields}', { id: '7', fields: 'name' }]);
      });

      it('treats every query variable as optional', () => {
        expect(resolve(matcher, 'https://api.example.com/users/7')).to.deep.equal(['https://api.example.com/users/{id}{?fields}', { id: '7' }]);
        expect(resolve(matcher, 'search://?page=2')).to.deep.equal(['search://{?q,page}', { page: '2' }]);
      });

      it('accepts the parameters in any order', () => {
        expect(resolve(matcher, 'search://?page=2&q=cats')).to.deep.equal(['search://{?q,page}', { q: 'cats', page: '2' }]);
      });

      it('ignores parameters the template does not declare', () => {
        expect(resolve(matcher, 'search://?utm=x&q=cats&debug')).to.deep.equal(['search://{?q,page}', { q: 'cats' }]);
      });

      it('keeps a non-exploded list as one string and takes its first occurrence', () => {
        expect(resolve(matcher, 'search://?q=a,b&q=c')).to.deep.equal(['search://{?q,page}', { q: 'a,b' }]);
      });

      it('binds a parameter without "=" to the empty string', () => {
        expect(resolve(matcher, 'search://?q')).to.deep.equal(['search://{?q,page}', { q: '' }]);
      });

      it('does not turn "+" into a space (RFC 6570 encodes spaces as %20)', () => {
        expect(resolve(matcher, 'search://?q=a+b%20c')).to.deep.equal(['search://{?q,page}', { q: 'a+b c' }]);
      });

      it('continues a literal query with {&var}', () => {
        expect(resolve(matcher, 'list://items?sort=asc&page=3')).to.deep.equal(['list://items?sort=asc{&page}', { page: '3' }]);
        expect(resolve(matcher, 'list://items?sort=asc')).to.deep.equal(['list://items?sort=asc{&page}', {}]);
      });

      it('collects an exploded {?var*} into an array', () => {
        expect(resolve(matcher, 'tags://all?tag=a&tag=b')).to.deep.equal(['tags://all{?tag*}', { tag: ['a', 'b'] }]);
        expect(resolve(matcher, 'tags://all?tag=a')).to.deep.equal(['tags://all{?tag*}', { tag: ['a'] }]);
      });

      it('binds a final {#var} after the query', () => {
        expect(resolve(matcher, 'doc://9?lang=en#usage')).to.deep.equal(['doc://{id}{?lang}{#section}', { id: '9', lang: 'en', section: 'usage' }]);
        expect(resolve(matcher, 'doc://9#usage')).to.deep.equal(['doc://{id}{?lang}{#section}', { id: '9', section: 'usage' }]);
      });

      it('does not match a fragment the template does not declare', () => {
        expect(matcher.match('search://?q=a#top')).to.equal(undefined);
      });
    });

    context('when values are percent-encoded', () => {
      const matcher = matcherOf('test://template/{id}/data', 'file:///{+path}', 'q://x{?v}', 'seg://s{/parts*}');

      it('decodes them', () => {
        expect(matcher.match('test://template/hello%20world/data')?.params).to.deep.equal({ id: 'hello world' });
        expect(matcher.match('test://template/%E2%9C%93/data')?.params).to.deep.equal({ id: '✓' });
        expect(matcher.match('file:///a%2Fb/c%20d')?.params).to.deep.equal({ path: 'a/b/c d' });
        expect(matcher.match('q://x?v=%26%3D')?.params).to.deep.equal({ v: '&=' });
        expect(matcher.match('seg://s/a%2Fb/c')?.params).to.deep.equal({ parts: ['a/b', 'c'] });
      });

      it('returns a value with a malformed escape exactly as written', () => {
        expect(matcher.match('test://template/100%/data')?.params).to.deep.equal({ id: '100%' });
        expect(matcher.match('test://template/%zz%20/data')?.params).to.deep.equal({ id: '%zz%20' });
        expect(matcher.match('test://template/%E2%9C/data')?.params).to.deep.equal({ id: '%E2%9C' });
      });
    });

    context('when several templates match', () => {
      it('prefers more literal characters: users://{id}/profile over users://{+rest}', () => {
        const matcher = matcherOf('users://{+rest}', 'users://{id}/profile');
        expect(matcher.match('users://42/profile')?.value).to.equal('users://{id}/profile');
        expect(matcher.match('users://a/b/c')?.value).to.equal('users://{+rest}');
      });

      it('prefers a template without expressions over one with', () => {
        const matcher = matcherOf('users://{id}/profile', 'users://admin/profile');
        expect(resolve(matcher, 'users://admin/profile')).to.deep.equal(['users://admin/profile', {}]);
        expect(resolve(matcher, 'users://bob/profile')).to.deep.equal(['users://{id}/profile', { id: 'bob' }]);
      });

      it('prefers {var} over {+var} when the literals tie, whatever the order of registration', () => {
        expect(matcherOf('a://{+x}', 'a://{x}').match('a://foo')?.value).to.equal('a://{x}');
        expect(matcherOf('a://{x}', 'a://{+x}').match('a://foo')?.value).to.equal('a://{x}');
      });

      it('counts bound query names as literal text', () => {
        const matcher = matcherOf('q://{id}{?a}', 'q://{id}{?b}');
        expect(resolve(matcher, 'q://1?b=2')).to.deep.equal(['q://{id}{?b}', { id: '1', b: '2' }]);
      });

      it('prefers fewer variables when everything else ties', () => {
        const matcher = matcherOf('q://{id}{?a,b,c}', 'q://{id}{?a}');
        expect(matcher.match('q://1?a=2')?.value).to.equal('q://{id}{?a}');
        expect(matcher.match('q://1?a=2&c=3')?.value).to.equal('q://{id}{?a,b,c}');
      });

      it('falls back to the order of registration', () => {
        const matcher = matcherOf('x://{a}', 'x://{b}');
        expect(resolve(matcher, 'x://1')).to.deep.equal(['x://{a}', { a: '1' }]);
      });

      it('reads a query as a query rather than as part of {+var}', () => {
        const matcher = matcherOf('r://{+path}{?v}');
        expect(resolve(matcher, 'r://a/b?v=2')).to.deep.equal(['r://{+path}{?v}', { path: 'a/b', v: '2' }]);
      });
    });

    context('when the input is hostile', () => {
      const matcher = matcherOf('test://{id}', 'file:///{+path}', 'q://x{?a*}', 'seg://s{/p*}');
      const inputs = [
        '', '%', '%%%', '%E0%A4%A', '{id}', '?#&=', 'test://', 'test://\u{1F600}', 'test://\uD800', '\u0000',
        `file:///${'a/'.repeat(50_000)}`, `q://x?${'a=1&'.repeat(50_000)}`, `seg://s${'/%'.repeat(50_000)}`, 'x'.repeat(200_000),
      ];

      it('never throws', () => {
        for (const uri of inputs) expect(() => matcher.match(uri), uri.slice(0, 20)).not.to.throw();
        expect(matcher.match(undefined as unknown as string)).to.equal(undefined);
      });

      it('binds variables named like Object.prototype members as own properties', () => {
        const params = matcherOf('proto://{__proto__}/{constructor}{?toString*}').match('proto://a/b?toString=c')?.params;
        expect(Object.getPrototypeOf(params)).to.equal(Object.prototype);
        expect(Object.entries(params ?? {})).to.deep.equal([['__proto__', 'a'], ['constructor', 'b'], ['toString', ['c']]]);
      });

      it('still matches long and non-ASCII URIs', () => {
        expect(matcher.match('test://\u{1F600}')?.params).to.deep.equal({ id: '\u{1F600}' });
        expect((matcher.match(`q://x?${'a=1&'.repeat(50_000)}`)?.params.a as string[]).length).to.equal(50_000);
        expect(matcher.match('')).to.equal(undefined);
      });
    });
  });

  describe('#add', () => {
    it('rejects the same source twice', () => {
      const matcher = matcherOf('users://{id}');
      expect(() => matcher.add(parseUriTemplate('users://{id}'), 'again'))
        .to.throw(PhantomError, 'users://{id}')
        .with.property('code', 'uri_template_duplicate');
    });

    it('matches a template without expressions only on its exact text', () => {
      const matcher = matcherOf('users://admin/profile');
      expect(resolve(matcher, 'users://admin/profile')).to.deep.equal(['users://admin/profile', {}]);
      expect(matcher.match('users://admin/profile/x')).to.equal(undefined);
      expect(matcher.match('users://admin')).to.equal(undefined);
    });
  });

  describe('#remove', () => {
    it('stops a template from ever matching again', () => {
      const matcher = matcherOf('users://{id}', 'users://{id}/profile');
      expect(matcher.remove('users://{id}/profile')).to.equal(true);
      expect(matcher.match('users://42/profile')).to.equal(undefined);
      expect(matcher.match('users://42')?.value).to.equal('users://{id}');
    });

    it('returns false for a source that is not registered', () => {
      expect(matcherOf('users://{id}').remove('users://{name}')).to.equal(false);
    });

    it('lets the next best template win', () => {
      const matcher = matcherOf('x://{a}', 'x://{b}');
      matcher.remove('x://{a}');
      expect(resolve(matcher, 'x://1')).to.deep.equal(['x://{b}', { b: '1' }]);
    });

    it('allows the template to be added again', () => {
      const matcher = matcherOf('users://{id}');
      matcher.remove('users://{id}');
      matcher.add(parseUriTemplate('users://{id}'), 'back');
      expect(matcher.match('users://7')?.value).to.equal('back');
    });
  });

  describe('#size', () => {
    it('counts registered templates', () => {
      const matcher = matcherOf('a://{x}', 'b://{x}');
      matcher.remove('a://{x}');
      expect(matcher.size).to.equal(1);
    });
  });

  context('when 10,000 templates are registered', () => {
    const build = (count: number) => {
      const matcher = new TemplateMatcher<number>();
      for (let i = 0; i < count; i++) matcher.add(parseUriTemplate(`res://kind${i}/{id}/item`), i);
      return matcher;
    };
    const microsPerMatch = (matcher: TemplateMatcher<number>, uri: string) => {
      for (let i = 0; i < 1_000; i++) matcher.match(uri);
      const rounds = 20_000;
      const start = process.hrtime.bigint();
      for (let i = 0; i < rounds; i++) matcher.match(uri);
      return Number(process.hrtime.bigint() - start) / rounds / 1_000;
    };

    it('matches the last-registered template with the right params', () => {
      const small = build(10);
      const large = build(10_000);
      const last = large.match('res://kind9999/abc%20d/item');
      expect(last?.value).to.equal(9999);
      expect(last?.template.source).to.equal('res://kind9999/{id}/item');
      expect(last?.params).to.deep.equal({ id: 'abc d' });
      expect(large.match('res://kind999/x/item')?.value).to.equal(999);
      expect(large.match('res://kind10000/x/item')).to.equal(undefined);
      const withTen = microsPerMatch(small, 'res://kind9/42/item');
      const withTenThousand = microsPerMatch(large, 'res://kind9999/42/item');
      console.log(`      match with 10 templates: ${withTen.toFixed(2)} µs, with 10000: ${withTenThousand.toFixed(2)} µs`);
    });
  });
});
