import { expect } from 'chai';
import { expectToolError, ResultAssertionError, structuredOf, textOf } from 'phantom-mcp/testing';

const ok = { content: [{ type: 'text', text: 'one' }, { type: 'image', data: '', mimeType: 'image/png' }, { type: 'text', text: 'two' }] };
const failed = { isError: true, content: [{ type: 'text', text: 'No weather for Atlantis' }] };

function thrown(run: () => unknown): ResultAssertionError {
  try { run(); } catch (error) { return error as ResultAssertionError; }
  throw new Error('expected a throw');
}

describe('result helpers (phantom-mcp/testing)', () => {
  describe('textOf', () => {
    it('joins the text blocks of a tool result', () => {
      expect(textOf(ok)).to.equal('one\ntwo');
    });

    it('reads prompt messages, resource contents and an outcome of server.handle', () => {
      expect(textOf({ messages: [{ role: 'user', content: { type: 'text', text: 'Plan' } }] })).to.equal('Plan');
      expect(textOf({ contents: [{ uri: 'a://b', text: 'body' }] })).to.equal('body');
      expect(textOf({ result: { content: [{ type: 'text', text: 'handled' }] } })).to.equal('handled');
    });

    context('when there is no text', () => {
      it('throws an AssertionError showing the result', () => {
        const error = thrown(() => textOf({ content: [] }));
        expect(error).to.be.instanceOf(ResultAssertionError).and.instanceOf(Error);
        expect(error.name).to.equal('AssertionError');
        expect(error.message).to.equal('textOf: the result has no text: {"content":[]}');
      });
    });

    context('when given an error outcome', () => {
      it('throws, saying the error', () => {
        expect(thrown(() => textOf({ error: { code: -32602, message: 'Unknown tool' } })).message)
          .to.equal('textOf: the request failed with an error, not a result: {"code":-32602,"message":"Unknown tool"}');
      });
    });
  });

  describe('structuredOf', () => {
    it('gives the structured content', () => {
      expect(structuredOf<{ celsius: number }>({ content: [], structuredContent: { celsius: 4 } }).celsius).to.equal(4);
    });

    it('throws on an error result, saying its text', () => {
      expect(thrown(() => structuredOf(failed)).message).to.equal('structuredOf: the tool returned an error result: "No weather for Atlantis"');
    });

    it('throws when there is no structured content', () => {
      expect(thrown(() => structuredOf(ok)).message).to.match(/^structuredOf: the result has no structuredContent: \{"content"/);
    });
  });

  describe('expectToolError', () => {
    it('returns the text of an error result that matches', () => {
      expect(expectToolError(failed, /Atlantis/)).to.equal('No weather for Atlantis');
      expect(expectToolError(failed, 'No weather')).to.equal('No weather for Atlantis');
      expect(expectToolError(failed)).to.equal('No weather for Atlantis');
    });

    context('when the tool succeeded', () => {
      it('throws, showing the result', () => {
        expect(thrown(() => expectToolError(ok, /x/)).message).to.match(/^expectToolError: expected an error result, but the tool succeeded with \{"content"/);
      });
    });

    context('when the text does not match', () => {
      it('throws with the pattern, the text, and both as expected and actual', () => {
        const error = thrown(() => expectToolError(failed, /rain/));
        expect(error.message).to.equal('expectToolError: expected the error text to match /rain/, but it was "No weather for Atlantis"');
        expect(error).to.include({ actual: 'No weather for Atlantis' });
        expect(error.expected).to.deep.equal(/rain/);
        expect(thrown(() => expectToolError(failed, 'rain')).message).to.match(/to contain "rain"/);
      });
    });
  });
});
