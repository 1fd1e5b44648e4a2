import { InMemoryTaskStore } from '../../../lib/entries/seams';
import { behavesAsTaskStore } from './task-store.contract';

describe('InMemoryTaskStore', () => {
  context('as a TaskStore', () => {
    behavesAsTaskStore({
      // One process: the "other node" is the same store.
      open: ({ now }) => {
        const store = new InMemoryTaskStore(now);
        return { store, peer: store };
      },
    });
  });
});
