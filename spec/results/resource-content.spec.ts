import { expect } from 'chai';
import { ResourceContent } from '../../lib';
import { normaliseResourceResult } from '../../lib/results/resource-content';

describe('normaliseResourceResult', () => {
  const scope = { uri: 'notes://a', mimeType: 'text/markdown' };

  context('when the handler returns a string', () => {
    it('takes the URI being read and the template MIME type', () => {
      expect(normaliseResourceResult('# A', scope)).to.deep.equal({ contents: [{ uri: 'notes://a', mimeType: 'text/markdown', text: '# A' }] });
    });

    it('defaults to text/plain without a declared MIME type', () => {
      expect(normaliseResourceResult('a', { uri: 'x://a' })).to.deep.equal({ contents: [{ uri: 'x://a', mimeType: 'text/plain', text: 'a' }] });
    });
  });

  context('when the handler returns an object', () => {
    it('is JSON with application/json when the declared type is not a JSON type', () => {
      expect(normaliseResourceResult({ a: 1 }, scope)).to.deep.equal({ contents: [{ uri: 'notes://a', mimeType: 'application/json', text: '{"a":1}' }] });
      expect(normaliseResourceResult({ a: 1 }, { uri: 'x://a' }).contents[0].mimeType).to.equal('application/json');
    });

    it('is JSON under the declared type when that is a JSON type (+json), as the listing advertised', () => {
      expect(normaliseResourceResult({ type: 'Point' }, { uri: 'geo://a', mimeType: 'application/geo+json' })).to.deep.equal({
        contents: [{ uri: 'geo://a', mimeType: 'application/geo+json', text: '{"type":"Point"}' }],
      });
      expect(normaliseResourceResult({ a: 1 }, { uri: 'x://a', mimeType: 'application/vnd.api+json; charset=utf-8' }).contents[0].mimeType).to.equal('application/vnd.api+json; charset=utf-8');
      expect(normaliseResourceResult({ a: 1 }, { uri: 'x://a', mimeType: 'application/jsonp' }).contents[0].mimeType).to.equal('application/json');
    });
  });

  context('when the handler returns bytes', () => {
    it('is base64 with application/octet-stream by default', () => {
      expect(normaliseResourceResult(new Uint8Array([255, 0]), { uri: 'x://b' })).to.deep.equal({
        contents: [{ uri: 'x://b', mimeType: 'application/octet-stream', blob: '/wA=' }],
      });
    });

    it('takes the template MIME type over the default', () => {
      expect(normaliseResourceResult(ResourceContent.blob(new Uint8Array([1])), { uri: 'x://p', mimeType: 'image/png' }).contents[0])
        .to.deep.equal({ uri: 'x://p', mimeType: 'image/png', blob: 'AQ==' });
    });
  });

  context('when the handler builds contents itself', () => {
    it('keeps what it set and fills what it left out', () => {
      const result = normaliseResourceResult([
        ResourceContent.text('a', { uri: 'other://1' }),
        ResourceContent.text({ b: 2 }, { mimeType: 'application/vnd.x+json' }),
      ], scope);
      expect(result.contents).to.deep.equal([
        { uri: 'other://1', mimeType: 'text/markdown', text: 'a' },
        { uri: 'notes://a', mimeType: 'application/vnd.x+json', text: '{"b":2}' },
      ]);
    });

    it('fills a full { contents } result as well', () => {
      expect(normaliseResourceResult({ contents: [{ text: 'z' }] }, scope).contents[0]).to.deep.equal({ uri: 'notes://a', mimeType: 'text/markdown', text: 'z' });
    });
  });
});
