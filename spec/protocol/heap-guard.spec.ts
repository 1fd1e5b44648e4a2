import { expect } from 'chai';
import { HeapGuard } from '../../lib/protocol/heap-guard';

describe('HeapGuard', () => {
  function guarded(ratio: number) {
    const heap = { used_heap_size: 50, heap_size_limit: 100 };
    let now = 0;
    let reads = 0;
    const guard = new HeapGuard(ratio, () => { reads += 1; return heap; }, () => now);
    return { guard, heap, advance: (ms: number) => { now += ms; }, reads: () => reads };
  }

  describe('#refusal', () => {
    it('refuses with -32010 once the heap is past its share of the limit, and takes work again below it', () => {
      const { guard, heap, advance } = guarded(0.9);
      expect(guard.refusal()).to.equal(undefined);
      heap.used_heap_size = 91;
      advance(100);
      expect(guard.refusal()).to.include({ code: -32010 });
      heap.used_heap_size = 40;
      advance(100);
      expect(guard.refusal()).to.equal(undefined);
    });

    it('reads the heap at most every 100 ms', () => {
      const { guard, heap, advance, reads } = guarded(0.9);
      guard.refusal();
      heap.used_heap_size = 95;
      advance(50);
      expect(guard.refusal()).to.equal(undefined);
      expect(reads()).to.equal(1);
      advance(50);
      expect(guard.refusal()).to.include({ code: -32010 });
      expect(reads()).to.equal(2);
    });

    it('never reads the heap with a ratio of 1', () => {
      const { guard, heap, reads } = guarded(1);
      heap.used_heap_size = 100;
      expect(guard.refusal()).to.equal(undefined);
      expect(reads()).to.equal(0);
    });
  });
});
