import { expect } from 'chai';
import { Content, ToolResult } from '../../lib';
import { normaliseToolResult } from '../../lib/results/tool-result';

describe('normaliseToolResult', () => {
  context('when the handler returns a string', () => {
    it('is one text block', () => {
      expect(normaliseToolResult('hi')).to.deep.equal({ content: [{ type: 'text', text: 'hi' }] });
    });
  });

  context('when the handler returns a plain object', () => {
    it('is structuredContent plus its JSON as text', () => {
      expect(normaliseToolResult({ a: 1 })).to.deep.equal({
        content: [{ type: 'text', text: '{"a":1}' }],
        structuredContent: { a: 1 },
      });
    });
  });

  context('when the handler returns a class instance', () => {
    it('is sent as its JSON form', () => {
      class Point { constructor(readonly x: number, readonly y: number) {} }
      expect(normaliseToolResult(new Point(1, 2)).structuredContent).to.deep.equal({ x: 1, y: 2 });
    });
  });

  context('when the handler returns content blocks', () => {
    it('wraps a single block', () => {
      expect(normaliseToolResult(Content.image('AAAA', 'image/png'))).to.deep.equal({
        content: [{ type: 'image', data: 'AAAA', mimeType: 'image/png' }],
      });
    });

    it('takes an array of blocks as the content', () => {
      const blocks = [Content.text('a'), Content.audio(new Uint8Array([1, 2]), 'audio/wav')];
      expect(normaliseToolResult(blocks)).to.deep.equal({
        content: [{ type: 'text', text: 'a' }, { type: 'audio', data: 'AQI=', mimeType: 'audio/wav' }],
      });
    });
  });

  context('when the handler returns a full result', () => {
    it('passes it through', () => {
      const result = ToolResult.error('nope');
      expect(normaliseToolResult(result)).to.equal(result);
      expect(result).to.deep.equal({ content: [{ type: 'text', text: 'nope' }], isError: true });
    });
  });

  context('when the handler returns nothing, a number or an array of values', () => {
    it('is empty content for undefined and null', () => {
      expect(normaliseToolResult(undefined)).to.deep.equal({ content: [] });
      expect(normaliseToolResult(null)).to.deep.equal({ content: [] });
    });

    it('is text for primitives and JSON text for plain arrays', () => {
      expect(normaliseToolResult(42)).to.deep.equal({ content: [{ type: 'text', text: '42' }] });
      expect(normaliseToolResult([1, 2])).to.deep.equal({ content: [{ type: 'text', text: '[1,2]' }] });
    });
  });
});
