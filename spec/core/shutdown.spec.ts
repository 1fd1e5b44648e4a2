import { expect } from 'chai';
import { PhantomError } from '../../lib/core/errors';
import { isServerClosing, ServerClosingError, SHUTDOWN_ERRORS } from '../../lib/core/shutdown';

describe('shutdown', () => {
  describe('ServerClosingError', () => {
    it('is a framework error with a stable code and name', () => {
      const error = new ServerClosingError();
      expect(error).to.be.instanceOf(PhantomError);
      expect([error.name, error.code, error.message]).to.deep.equal(['ServerClosingError', 'server_closing', 'The server closed before the request finished']);
    });
  });

  describe('isServerClosing', () => {
    it('tells the server\'s own cancellation from the client\'s', () => {
      expect(isServerClosing(new ServerClosingError())).to.equal(true);
      expect(isServerClosing('client cancelled')).to.equal(false);
      expect(isServerClosing(new Error('The server closed before the request finished'))).to.equal(false);
      expect(isServerClosing(undefined)).to.equal(false);
    });
  });

  describe('SHUTDOWN_ERRORS', () => {
    it('answers both refusals with -32000, in words that say whether the request ran', () => {
      expect(SHUTDOWN_ERRORS.cancelled).to.deep.equal({ code: -32000, message: 'Server shutting down: the request did not finish in time and was cancelled' });
      expect(SHUTDOWN_ERRORS.refused).to.deep.equal({ code: -32000, message: 'Server shutting down: no new requests are accepted' });
      expect(Object.isFrozen(SHUTDOWN_ERRORS.cancelled) && Object.isFrozen(SHUTDOWN_ERRORS.refused)).to.equal(true);
    });
  });
});
