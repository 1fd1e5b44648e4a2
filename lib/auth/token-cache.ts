import { hash } from 'node:crypto';

/**
 * Verification results by token, each until its expiry, at most `maxEntries` of them (the least
 * recently used are forgotten first). Keyed by the token itself when it is short (every real
 * access token: a hash per request was a tenth of a cached call's cost), by its SHA-256 when it
 * is longer, so the memory held stays bounded by `maxEntries` x `HASHED_FROM` characters, and
 * only tokens that verified are ever kept.
 */
/** Tokens this long or longer are keyed by their hash. */
export const HASHED_FROM = 2048;

export class TokenCache<V> {
  private readonly entries = new Map<string, { readonly value: V; readonly expiresAt: number }>();

  constructor(private readonly maxEntries: number, private readonly now: () => number) {}

  /** The key of a token (computed once per request, used for `get` and `set`). */
  keyOf(token: string): string {
    // A raw key and a hash cannot meet: a SHA-256 in base64url is 43 characters, a raw key at most HASHED_FROM - 1 with a prefix.
    return token.length < HASHED_FROM ? `t:${token}` : hash('sha256', token, 'base64url');
  }

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (this.now() >= entry.expiresAt) {
      this.entries.delete(key);
      return undefined;
    }
    // Most recently used last: the first entry is the one to forget.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Keeps `value` until `expiresAt` (ms since the epoch); nothing is kept for what has already expired. */
  set(key: string, value: V, expiresAt: number): void {
    if (this.maxEntries === 0 || this.now() >= expiresAt) return;
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { value, expiresAt });
  }

  get size(): number {
    return this.entries.size;
  }
}
