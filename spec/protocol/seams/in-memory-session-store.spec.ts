import { expect } from 'chai';
import { InMemorySessionStore } from '../../../lib/entries/seams';
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
});
