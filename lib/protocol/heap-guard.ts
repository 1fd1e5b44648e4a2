import { getHeapStatistics } from 'node:v8';
import { ErrorCode } from '../core/error-codes';
import type { ErrorObject } from '../core/error-mapper';

/** What the guard reads of the heap: V8's statistics, or a fake in specs. */
export type HeapReading = () => { readonly used_heap_size: number; readonly heap_size_limit: number };

/** `maxHeapUsedRatio`'s default. */
export const DEFAULT_MAX_HEAP_USED_RATIO = 0.9;

/** How often the heap is read at most, in ms: a request in between trusts the last reading. */
const READ_EVERY_MS = 100;

/**
 * Refuses new work while the process's heap is nearly full (`maxHeapUsedRatio` of V8's limit),
 * so that a burst of large messages is answered "try later" instead of aborting the process for
 * every session it serves. The heap is read at most every 100 ms, on demand: no timer.
 */
export class HeapGuard {
  private readAt = -Infinity;
  private full = false;

  constructor(
    /** The share of V8's heap limit past which new requests are refused (`1` or more: never). */
    private readonly maxUsedRatio: number,
    private readonly read: HeapReading = getHeapStatistics,
    private readonly now: () => number = Date.now,
  ) {}

  /** The error to refuse a new request with while the heap is nearly full; `undefined` otherwise. */
  refusal(): ErrorObject | undefined {
    if (this.maxUsedRatio >= 1) return undefined;
    const now = this.now();
    if (now - this.readAt >= READ_EVERY_MS) {
      this.readAt = now;
      const { used_heap_size: used, heap_size_limit: limit } = this.read();
      this.full = used > limit * this.maxUsedRatio;
    }
    return this.full ? OVERLOADED : undefined;
  }
}

const OVERLOADED: ErrorObject = Object.freeze({
  code: ErrorCode.TooManyRequests,
  message: 'The server is low on memory and takes no new requests for now; retry in a few seconds',
});
