import { expect } from 'chai';
import { InMemoryEventStore } from '../../../lib/entries/seams';
import { behavesAsEventStore, note } from './event-store.contract';

describe('InMemoryEventStore', () => {
  context('as an EventStore', () => {
    behavesAsEventStore({ open: (options) => new InMemoryEventStore(options) });
  });

  describe('#dropStream', () => {
    it('frees what the store held of the stream', async () => {
      const store = new InMemoryEventStore();
      await store.append({ id: 'stream-a', sessionId: 'session-1' }, note(1));
      await store.append({ id: 'stream-b', sessionId: 'session-2' }, note(2));
      await store.dropStream('stream-a');
      expect(store.streamCount).to.equal(1);
    });
  });
});
