import { expect } from 'chai';
import { HASHED_FROM, TokenCache } from '../../lib/auth/token-cache';

describe('TokenCache', () => {
  let now = 0;
  const clock = () => now;
  beforeEach(() => { now = 1_000; });

  describe('#keyOf', () => {
    it('keys a short token by itself, so a cached call pays no hash', () => {
      const cache = new TokenCache<string>(10, clock);
      expect(cache.keyOf('abc.def.ghi')).to.equal('abc.def.ghi');
    });

    it('keys a long token by its SHA-256, so memory stays bounded by the entry count', () => {
      const cache = new TokenCache<string>(10, clock);
      const key = cache.keyOf('x'.repeat(HASHED_FROM));
      expect(key).to.match(/^#[A-Za-z0-9_-]{43}$/);
      expect(key).not.to.include('x'.repeat(50));
    });

    it('never gives a short token the key of a long one (a hashed key holds a character no bearer token does)', () => {
      const cache = new TokenCache<string>(10, clock);
      const hashed = cache.keyOf('y'.repeat(HASHED_FROM + 1));
      expect(hashed.slice(1)).to.match(/^[A-Za-z0-9\-._~+/]+=*$/, 'the hash alone would be a valid b64token');
      expect(cache.keyOf(hashed.slice(1))).not.to.equal(hashed);
    });
  });

  describe('#get', () => {
    it('answers what was kept until its expiry, then forgets it', () => {
      const cache = new TokenCache<string>(10, clock);
      cache.set(cache.keyOf('a'), 'alice', 2_000);
      expect(cache.get(cache.keyOf('a'))).to.equal('alice');
      now = 2_000;
      expect(cache.get(cache.keyOf('a'))).to.equal(undefined);
      expect(cache.size).to.equal(0);
    });

    it('keeps a token in use every so often, however many others come and go', () => {
      const cache = new TokenCache<string>(8, clock);
      cache.set('busy', 'B', 9_000);
      for (let i = 0; i < 100; i++) {
        cache.set(`other-${i}`, 'O', 9_000);
        if (i % 3 === 0) expect(cache.get('busy'), `after ${i} others`).to.equal('B');
      }
      expect(cache.size).to.equal(8);
      expect(cache.get('other-0')).to.equal(undefined);
    });

    it('forgets the least recently used entry first when full', () => {
      const cache = new TokenCache<string>(2, clock);
      cache.set('a', 'A', 9_000);
      cache.set('b', 'B', 9_000);
      cache.get('a');
      cache.set('c', 'C', 9_000);
      expect([cache.get('a'), cache.get('b'), cache.get('c')]).to.deep.equal(['A', undefined, 'C']);
    });
  });

  describe('#set', () => {
    it('keeps nothing that has already expired, nor anything with no room at all', () => {
      const expired = new TokenCache<string>(10, clock);
      expired.set('a', 'A', 1_000);
      expect(expired.size).to.equal(0);
      const none = new TokenCache<string>(0, clock);
      none.set('a', 'A', 9_000);
      expect(none.size).to.equal(0);
    });
  });
});
