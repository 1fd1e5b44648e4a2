import { expect } from 'chai';
import { ClientError, ForbiddenError, InputRequiredSignal, ProtocolError, ResourceNotFoundError, ToolError } from '../../lib/core/errors';
import {
  invalidArguments, requestIdInUse, resourceNotFound, resourceReadFailure, tooManyRequests, toErrorObject,
} from '../../lib/core/error-mapper';
import type { Diagnostics } from '../../lib/core/diagnostics';

function recording(): { diagnostics: Diagnostics; logged: Array<[string, unknown]> } {
  const logged: Array<[string, unknown]> = [];
  return { logged, diagnostics: { error: (message, error) => { logged.push([message, error]); }, warn: () => {} } };
}

describe('error-mapper', () => {
  describe('toErrorObject', () => {
    context('when a ProtocolError is thrown', () => {
      it('answers its own code, message and data, and logs nothing', () => {
        const { diagnostics, logged } = recording();
        expect(toErrorObject(new ProtocolError(-32042, 'URL elicitation required', { elicitations: [] }), 'tools/call x', diagnostics))
          .to.deep.equal({ code: -32042, message: 'URL elicitation required', data: { elicitations: [] } });
        expect(toErrorObject(new ForbiddenError('Needs notes:write'), 'tools/call x', diagnostics)).to.deep.equal({ code: -32003, message: 'Needs notes:write' });
        expect(logged).to.deep.equal([]);
      });
    });

    context('when a ToolError is thrown outside a tool', () => {
      it('answers invalid params with its message', () => {
        expect(toErrorObject(new ToolError('No such city'), 'prompts/get p', recording().diagnostics)).to.deep.equal({ code: -32602, message: 'No such city' });
      });
    });

    context('when the client failed a request of ours (ClientError)', () => {
      it('answers an internal error with what went wrong, never the client\'s code, and logs nothing', () => {
        const { diagnostics, logged } = recording();
        const error = ClientError.answered('sampling/createMessage', { code: -1, message: 'no model' });
        expect(toErrorObject(error, 'prompts/get p', diagnostics)).to.deep.equal({ code: -32603, message: error.message });
        expect(logged).to.deep.equal([]);
      });
    });

    context('when an InputRequiredSignal escapes', () => {
      it('answers an internal error with its message', () => {
        const error = new InputRequiredSignal();
        expect(toErrorObject(error, 'x', recording().diagnostics)).to.deep.equal({ code: -32603, message: error.message });
      });
    });

    context('when anything else is thrown (a bug)', () => {
      it('answers a generic internal error, never the detail, and logs the detail with the label', () => {
        const { diagnostics, logged } = recording();
        const bug = new Error('secret database password in stack');
        expect(toErrorObject(bug, 'tools/call crash', diagnostics)).to.deep.equal({ code: -32603, message: 'Internal error' });
        expect(toErrorObject('a thrown string', 'tools/call crash', diagnostics)).to.deep.equal({ code: -32603, message: 'Internal error' });
        expect(logged).to.deep.equal([['tools/call crash failed', bug], ['tools/call crash failed', 'a thrown string']]);
      });
    });
  });

  describe('invalidArguments', () => {
    it('says what failed, one line per issue', () => {
      expect(invalidArguments('tool forecast', ['city must be a string', 'days must not be greater than 14']))
        .to.equal('Invalid arguments for tool forecast:\n- city must be a string\n- days must not be greater than 14');
    });
  });

  describe('tooManyRequests', () => {
    it('answers -32010 naming the limit, in data too', () => {
      expect(tooManyRequests(3)).to.deep.equal({
        code: -32010, message: 'Too many requests in flight: this session already has 3 running; send more when one has finished', data: { maxInFlightPerSession: 3 },
      });
      expect(tooManyRequests(1, 'connection').message).to.match(/this connection already has 1 running/);
    });
  });

  describe('requestIdInUse', () => {
    it('answers -32600 quoting the id as JSON', () => {
      expect(requestIdInUse('a"b')).to.deep.equal({ code: -32600, message: 'Invalid Request: id "a\\"b" is already used by a request of this session that is still running' });
    });
  });

  describe('resourceNotFound', () => {
    it('is -32002 with the URI in data, and keeps its cause', () => {
      const cause = new Error('gone');
      const error = resourceNotFound('x://a', undefined, cause);
      expect(error.toJSON()).to.deep.equal({ code: -32002, message: 'Resource not found: x://a', data: { uri: 'x://a' } });
      expect(error.cause).to.equal(cause);
    });
  });

  describe('resourceReadFailure', () => {
    context('when a resource handler throws ResourceNotFoundError', () => {
      it('becomes not found for the URI being read, with the handler\'s words', () => {
        const failure = resourceReadFailure(new ResourceNotFoundError('No item 7'), 'x://items/7') as ProtocolError;
        expect(failure.toJSON()).to.deep.equal({ code: -32002, message: 'No item 7', data: { uri: 'x://items/7' } });
      });
    });

    context('when it throws anything else', () => {
      it('passes the error on untouched', () => {
        const bug = new Error('boom');
        expect(resourceReadFailure(bug, 'x://a')).to.equal(bug);
      });
    });
  });
});
