/** How a table of token buckets fills and how many it keeps. */
export interface TokenBucketsOptions {
  /** Tokens a bucket holds when full: the calls one key may make in a burst. */
  readonly capacity: number;
  /** Tokens a bucket earns back per second, up to `capacity`. */
  readonly refillPerSecond: number;
  /** Buckets kept at once; beyond it the least recently used is forgotten (it comes back full). */
  readonly maxBuckets: number;
  /** A clock in milliseconds. */
  readonly now: () => number;
}

interface Bucket {
  tokens: number;
  /** When `tokens` was last brought up to date. */
  at: number;
}

/**
 * Token buckets by key, in bounded memory: a `Map` kept in least-recently-used order (a key is
 * moved to the end on each use), its oldest entry dropped when a new key would exceed
 * `maxBuckets`. A forgotten bucket comes back full, which is what it would have become anyway
 * unless a key is used again within `capacity / refillPerSecond` seconds while `maxBuckets` other
 * keys are used: size `maxBuckets` above the number of keys that can be live at once.
 */
export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();
  private readonly refillPerMs: number;

  constructor(private readonly options: TokenBucketsOptions) {
    this.refillPerMs = options.refillPerSecond / 1000;
  }

  /** Takes one token of `key`'s bucket: `0` when taken, else the milliseconds until one is there. */
  take(key: string): number {
    const now = this.options.now();
    let bucket = this.buckets.get(key);
    if (bucket) {
      this.buckets.delete(key);
      bucket.tokens = Math.min(this.options.capacity, bucket.tokens + (now - bucket.at) * this.refillPerMs);
      bucket.at = now;
    } else {
      if (this.buckets.size >= this.options.maxBuckets) this.buckets.delete(this.buckets.keys().next().value as string);
      bucket = { tokens: this.options.capacity, at: now };
    }
    this.buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.ceil((1 - bucket.tokens) / this.refillPerMs);
  }

  /** Buckets held now (at most `maxBuckets`). */
  get size(): number {
    return this.buckets.size;
  }
}
