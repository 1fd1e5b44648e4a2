import 'reflect-metadata';
import { expect } from 'chai';
import { ClientError, PhantomError } from '../../../lib';
import { PendingRequests } from '../../../lib/protocol/session-era/pending-requests';
import { settledNow } from '../support/protocol-fakes';

const NEVER = new AbortController().signal;

describe('PendingRequests', () => {
  describe('#allocateId', () => {
    it('gives ids unique across nodes (strings, never a per-process counter that restarts at 1)', () => {
      const ids = new Set([new PendingRequests().allocateId(), new PendingRequests().allocateId(), new PendingRequests().allocateId()]);
      expect(ids.size).to.equal(3);
      for (const id of ids) expect(id).to.be.a('string').and.not.match(/^\d+$/);
    });
  });

  describe('#madeBy', () => {
    it('tells its own ids from another node\'s and from ids a client made up', () => {
      const here = new PendingRequests();
      const elsewhere = new PendingRequests();
      expect(here.madeBy(here.allocateId())).to.equal('here');
      expect(here.madeBy(elsewhere.allocateId())).to.equal('elsewhere');
      for (const made of [1, '1', 'abc', `${here.allocateId()}!`, null, undefined, 'zzzzzzzzzzzz-1:1']) {
        expect(here.madeBy(made), String(made)).to.equal('nobody');
      }
    });
  });

  describe('#settle', () => {
    context('when the response carries the id of a request of another session', () => {
      it('settles nothing: that request keeps waiting, for its own session only', async () => {
        const pending = new PendingRequests();
        const id = pending.allocateId();
        const waiting = pending.wait('session-a', id, 'sampling/createMessage', undefined, NEVER);
        expect(pending.settle('session-b', { jsonrpc: '2.0', id, result: { stolen: true } })).to.equal(false);
        expect(await settledNow(waiting)).to.equal('waiting');
        expect(pending.settle('session-a', { jsonrpc: '2.0', id, result: { mine: true } })).to.equal(true);
        expect(await waiting).to.deep.equal({ mine: true });
      });
    });

    context('when the client answers with an error', () => {
      it('rejects the waiter with a ClientError naming the method', async () => {
        const pending = new PendingRequests();
        const id = pending.allocateId();
        const waiting = pending.wait('s', id, 'roots/list', undefined, NEVER);
        pending.settle('s', { jsonrpc: '2.0', id, error: { code: -1, message: 'no roots here' } });
        const outcome = await settledNow(waiting);
        expect(outcome).to.have.property('error').that.is.instanceOf(ClientError);
      });
    });

    context('when the ids differ only in type', () => {
      it('keeps 1 and "1" apart', async () => {
        const pending = new PendingRequests();
        const waiting = pending.wait('s', '1', 'roots/list', undefined, NEVER);
        expect(pending.settle('s', { jsonrpc: '2.0', id: 1, result: {} })).to.equal(false);
        expect(await settledNow(waiting)).to.equal('waiting');
      });
    });
  });

  describe('#abandon', () => {
    it('fails every waiter of the session, and only of that session', async () => {
      const pending = new PendingRequests();
      const mine = pending.wait('s', pending.allocateId(), 'roots/list', undefined, NEVER);
      const other = pending.wait('t', pending.allocateId(), 'roots/list', undefined, NEVER);
      pending.abandon('s');
      const outcome = await settledNow(mine);
      expect(outcome).to.have.property('error').that.is.instanceOf(PhantomError).with.property('code', 'session_closed');
      expect(await settledNow(other)).to.equal('waiting');
    });
  });
});
