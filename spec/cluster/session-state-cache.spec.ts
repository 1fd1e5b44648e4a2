import { expect } from 'chai';
import { MAX_KEPT_JSON, SessionStateCache } from '../../lib/cluster/session-state-cache';
import type { SessionState } from '../../lib/entries/seams';

/** A session's JSON as Redis keeps it (lastActiveAt left out). */
function stored(id: string, changes: Partial<SessionState> = {}): string {
  return JSON.stringify({ id, protocolVersion: '2025-11-25', clientCapabilities: {}, initialized: true, subscriptions: [], createdAt: 1, ...changes });
}

describe(SessionStateCache.name, () => {
  describe('#stateOf', () => {
    it('gives the state the JSON holds, with lastActiveAt', () => {
      const state = new SessionStateCache().stateOf('a', stored('a', { logLevel: 'info' }), 42);
      expect(state).to.deep.equal({ ...JSON.parse(stored('a', { logLevel: 'info' })), lastActiveAt: 42 });
    });

    context('when Redis answers the same JSON and lastActiveAt again', () => {
      it('gives the state parsed before', () => {
        const cache = new SessionStateCache();
        const first = cache.stateOf('a', stored('a'), 42);
        expect(cache.stateOf('a', stored('a'), 42)).to.equal(first);
      });
    });

    context('when the session changed (on any node)', () => {
      it('parses the new JSON', () => {
        const cache = new SessionStateCache();
        cache.stateOf('a', stored('a'), 42);
        const changed = cache.stateOf('a', stored('a', { subscriptions: ['file:///x'] }), 42);
        expect(changed.subscriptions).to.deep.equal(['file:///x']);
      });
    });

    context('when the session was touched', () => {
      it('gives the new lastActiveAt', () => {
        const cache = new SessionStateCache();
        cache.stateOf('a', stored('a'), 42);
        expect(cache.stateOf('a', stored('a'), 43).lastActiveAt).to.equal(43);
      });
    });

    context('when more sessions are parsed than the limit', () => {
      it('keeps the ones parsed last only', () => {
        const cache = new SessionStateCache(2);
        const a = cache.stateOf('a', stored('a'), 1);
        const b = cache.stateOf('b', stored('b'), 1);
        const c = cache.stateOf('c', stored('c'), 1);
        expect(cache.stateOf('c', stored('c'), 1)).to.equal(c);
        expect(cache.stateOf('b', stored('b'), 1)).to.equal(b);
        expect(cache.stateOf('a', stored('a'), 1)).to.not.equal(a);
      });
    });
  });

  context('when a session\'s JSON is longer than MAX_KEPT_JSON (a client declaring huge capabilities)', () => {
    it('parses it each time and keeps none of it', () => {
      const cache = new SessionStateCache();
      const huge = stored('a', { clientInfo: { name: 'x'.repeat(MAX_KEPT_JSON), version: '1' } });
      const first = cache.stateOf('a', huge, 1);
      const again = cache.stateOf('a', huge, 1);
      expect(again).to.not.equal(first);
      expect(again).to.deep.equal(first);
    });
  });

  describe('#forget', () => {
    it('drops what was parsed of the session', () => {
      const cache = new SessionStateCache();
      const first = cache.stateOf('a', stored('a'), 42);
      cache.forget('a');
      expect(cache.stateOf('a', stored('a'), 42)).to.not.equal(first);
    });
  });
});
