import { expect } from 'chai';
import { ClientError, InputRequiredSignal, PhantomError, ProtocolError, ToolError } from '../../lib/core/errors';
import type { Diagnostics } from '../../lib/core/diagnostics';
import { invalidOutput, toolFailure } from '../../lib/results/tool-failure';

function recording(): { diagnostics: Diagnostics; logged: unknown[][] } {
  const logged: unknown[][] = [];
  return { logged, diagnostics: { error: (...line) => { logged.push(line); }, warn: () => {} } };
}

const errorResult = (text: string) => ({ content: [{ type: 'text', text }], isError: true });

describe('toolFailure', () => {
  context('when a tool throws a ToolError', () => {
    it('gives the model an isError result with its message, and logs nothing', () => {
      const { diagnostics, logged } = recording();
      expect(toolFailure(new ToolError('No city by that name'), 'Weather#forecast', diagnostics)).to.deep.equal(errorResult('No city by that name'));
      expect(logged).to.deep.equal([]);
    });
  });

  context('when the client failed a request of the tool (ClientError)', () => {
    it('gives an isError result saying what the client did', () => {
      const error = ClientError.malformed('roots/list', '"roots" must be an array');
      expect(toolFailure(error, 'Files#list', recording().diagnostics)).to.deep.equal(errorResult(error.message));
    });
  });

  context('when the call was cancelled while the tool waited for the client', () => {
    it('reports nothing: the cancellation is the client\'s, not a fault of the server', () => {
      const { diagnostics, logged } = recording();
      const cancelled = new PhantomError('request_aborted', 'The request waiting for the client was cancelled');
      expect(toolFailure(cancelled, 'Everything#greet', diagnostics)).to.deep.equal(errorResult(cancelled.message));
      expect(logged).to.deep.equal([]);
    });
  });

  context('when a tool throws a bug', () => {
    it('gives a generic isError result, never the detail, and logs the detail', () => {
      const { diagnostics, logged } = recording();
      const bug = new Error('secret database password in stack');
      expect(toolFailure(bug, 'Db#query', diagnostics)).to.deep.equal(errorResult('The tool failed with an internal error.'));
      expect(logged).to.deep.equal([['Db#query threw', bug]]);
    });
  });

  context('when a tool throws a ProtocolError or asks for input', () => {
    it('rethrows it: it is not a result', () => {
      const protocol = new ProtocolError(-32042, 'URL elicitation required');
      const input = new InputRequiredSignal();
      expect(() => toolFailure(protocol, 'x', recording().diagnostics)).to.throw(protocol);
      expect(() => toolFailure(input, 'x', recording().diagnostics)).to.throw(input);
    });
  });
});

describe('invalidOutput', () => {
  it('names the failing properties to the model and logs every issue', () => {
    const { diagnostics, logged } = recording();
    const result = invalidOutput({ name: 'forecast', label: 'Weather#forecast' }, ['temp', 'city'], ['temp must be a number', 'city is required'], diagnostics);
    expect(result).to.deep.equal(errorResult('Tool "forecast" returned a result that does not match its output schema (temp, city).'));
    expect(logged).to.deep.equal([['Weather#forecast returned a result that does not match its output schema:\n  - temp must be a number\n  - city is required']]);
  });
});
