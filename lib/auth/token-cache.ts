import { hash } from 'node:crypto';

/** Tokens this long or longer are keyed by their hash. */
export const HASHED_FROM = 2048;

interface Entry<V> {
  readonly value: V;
  readonly expiresAt: number;
  /** `moves` when the entry last went to the back of the eviction order. */
  stamp: number;
}

/**
 * Verification results by token, each until its expiry, at most `maxEntries` of them (the least
 * recently used are forgotten first). Keyed by the token itself when it is short (every real
 * access token: a hash, or even a prefixed copy, per request was a tenth of a cached call's
 * cost), by its SHA-256 when it is longer, so the memory held stays bounded by `maxEntries` x
 * `HASHED_FROM` characters, and only tokens that verified are ever kept.
 *
 * A hit moves its entry to the back of the eviction order only when the entry has drifted into
 * the older half (more than `maxEntries / 2` moves since its own): a token in use every so often
 * is never forgotten, and the hot path of a busy token is one lookup.
 */
export class TokenCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private moves = 0;

  constructor(private readonly maxEntries: number, private readonly now: () => number) {}

  /**
   * The key of a bearer token (RFC 6750's b64token, which the caller has checked), computed
   * once per request and used for `get` and `set`. A hashed key starts with `#`, which no
   * b64token holds, so a short token can never be given a long one's key.
   */
  keyOf(token: string): string {
    return token.length < HASHED_FROM ? token : `#${hash('sha256', token, 'base64url')}`;
  }

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (this.now() >= entry.expiresAt) {
      this.entries.delete(key);
      return undefined;
    }
    if (this.moves - entry.stamp > this.maxEntries >> 1) {
      this.entries.delete(key);
      this.entries.set(key, entry);
      entry.stamp = this.moves++;
    }
    return entry.value;
  }

  /** Keeps `value` until `expiresAt` (ms since the epoch); nothing is kept for what has already expired. */
  set(key: string, value: V, expiresAt: number): void {
    if (this.maxEntries === 0 || this.now() >= expiresAt) return;
    this.entries.delete(key);
    // The first entry is the one to forget: the longest since it last moved to the back.
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { value, expiresAt, stamp: this.moves++ });
  }

  get size(): number {
    return this.entries.size;
  }
}
