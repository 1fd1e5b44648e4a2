import { hash } from 'node:crypto';

/**
 * Verification results by token, each until its expiry, at most `maxEntries` of them (the least
 * recently used are forgotten first). Keyed by the token's SHA-256, so the cache holds no tokens
 * and its memory is bounded by the entry count, whatever the tokens' size.
 */
export class TokenCache<V> {
  private readonly entries = new Map<string, { readonly value: V; readonly expiresAt: number }>();

  constructor(private readonly maxEntries: number, private readonly now: () => number) {}

  /** The key of a token (computed once per request, used for `get` and `set`). */
  keyOf(token: string): string {
    return hash('sha256', token, 'base64url');
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
