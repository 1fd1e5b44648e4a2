import { expect } from 'chai';
import { InMemorySessionStore } from '../../../lib/entries/seams';
import { TOUCHED } from '../../../lib/protocol/seams/session-store';
import { behavesAsSessionStore, sessionState } from './session-store.contract';

describe('InMemorySessionStore', () => {
  context('as a SessionStore', () => {
    behavesAsSessionStore({ open: (settings) => new InMemorySessionStore(settings) });
  });

  describe('#update', () => {
    context('when the change gives the session another id', () => {
      it('refuses, and the session keeps its state', async () => {
        const store = new InMemorySessionStore();
        const now = Date.now();
        await store.save(sessionState('s1', now));
        const outcome = await store.update('s1', (current) => ({ ...current, id: 's2' })).then(() => 'applied', (error: Error) => error.message);
        expect(outcome).to.equal('A session change may not change its id (s1 became s2)');
        expect(await store.load('s2')).to.equal(undefined);
        expect(await store.load('s1')).to.deep.equal(sessionState('s1', now));
        await store.close();
      });
    });
  });

  describe('#loadAtHand', () => {
    it('answers at once what #load answers: the session, none for an unknown id, none once it expired (raised once)', async () => {
      let now = 1_000_000;
      const store = new InMemorySessionStore({ idleMs: 1_000, now: () => now });
      const expired: string[] = [];
      store.onExpired((id) => expired.push(id));
      await store.save(sessionState('s1', now));
      expect(store.loadAtHand('s1')).to.deep.equal(await store.load('s1'));
      expect(store.loadAtHand('s1')).to.deep.include({ id: 's1' });
      expect(store.loadAtHand('nobody')).to.equal(undefined);
      now += 1_001;
      expect(store.loadAtHand('s1')).to.equal(undefined);
      expect(await store.load('s1')).to.equal(undefined);
      expect(expired).to.deep.equal(['s1']);
      await store.close();
    });
  });

  describe('#touch', () => {
    it('is done at once, and says so with the settled TOUCHED (nothing for the protocol to watch)', async () => {
      let now = 1_000_000;
      const store = new InMemorySessionStore({ idleMs: 1_000, now: () => now });
      await store.save(sessionState('s1', now));
      now += 900;
      expect(store.touch('s1')).to.equal(TOUCHED);
      now += 900;
      expect(store.loadAtHand('s1')).to.deep.include({ id: 's1', lastActiveAt: 1_000_900 });
      await store.close();
    });
  });
});
