import { expect } from 'chai';
import { TokenBuckets } from '../../../../lib/router/pipeline/built-ins/token-buckets';

describe('TokenBuckets', () => {
  let now: number;
  const buckets = (capacity: number, refillPerSecond: number, maxBuckets = 100) => new TokenBuckets({ capacity, refillPerSecond, maxBuckets, now: () => now });

  beforeEach(() => { now = 1_000; });

  describe('#take', () => {
    it('gives a new key a full bucket, then says how long until the next token', () => {
      const table = buckets(2, 1);
      expect([table.take('a'), table.take('a'), table.take('a')]).to.deep.equal([0, 0, 1000]);
    });

    it('refills over time, never beyond capacity', () => {
      const table = buckets(2, 4);
      table.take('a');
      table.take('a');
      now += 250;
      expect(table.take('a')).to.equal(0);
      expect(table.take('a')).to.equal(250);
      now += 60_000;
      expect([table.take('a'), table.take('a'), table.take('a')]).to.deep.equal([0, 0, 250]);
    });

    it('keeps one bucket per key', () => {
      const table = buckets(1, 1);
      expect([table.take('a'), table.take('b'), table.take('a')]).to.deep.equal([0, 0, 1000]);
    });

    context('when more keys arrive than maxBuckets', () => {
      it('forgets the least recently used bucket first, and never holds more than maxBuckets', () => {
        const table = buckets(1, 0.001, 2);
        table.take('a');
        table.take('b');
        expect(table.take('a')).to.be.above(0);    // a is now the most recent
        table.take('c');                           // forgets b, not a
        expect(table.size).to.equal(2);
        expect(table.take('a')).to.be.above(0);
        expect(table.take('b')).to.equal(0);       // back, full
      });
    });
  });
});
