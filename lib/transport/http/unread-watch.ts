import type { HttpResponseLike } from './http-like.types';

/**
 * How much an SSE connection may hold that its client has not read (`HttpOptions.maxSseBufferBytes`
 * and `sseStallTimeoutMs`): past `maxBytes`, the client must keep taking bytes, at least some in
 * every `stallMs`, or its connection is dropped.
 */
export interface UnreadLimit {
  readonly maxBytes: number;
  readonly stallMs: number;
}

/** No limit: what the unit specs of a stream use when backpressure is not what they test. */
export const UNLIMITED: UnreadLimit = Object.freeze({ maxBytes: Infinity, stallMs: Infinity });

/**
 * Writes to one connection and tells a client that stopped reading from one that reads slowly.
 * An event's own size says nothing about its client (a 3 MB result sits unread for as long as
 * the client takes to read it), so the backlog is never judged at the write: while it stays over
 * the limit, a timer looks every `stallMs` whether the client took any of it since the last look,
 * and only a client that took nothing at all is dropped (`onStalled`).
 */
export class UnreadWatch {
  private timer?: NodeJS.Timeout;
  /** The backlog when last looked at (after a write, or at the timer). */
  private lastLength = 0;
  /** Whether the client took bytes since the timer was set. */
  private progressed = false;

  constructor(
    private readonly res: HttpResponseLike,
    private readonly limit: UnreadLimit,
    private readonly onStalled: () => void,
  ) {}

  write(chunk: string): void {
    const res = this.res;
    // Writes only add to the backlog: a smaller one than after the previous write means reading.
    if (res.writableLength < this.lastLength) this.progressed = true;
    res.write(chunk);
    this.lastLength = res.writableLength;
    if (this.timer === undefined && this.lastLength > this.limit.maxBytes) this.arm();
  }

  /** The connection is over: nothing to watch. */
  stop(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private arm(): void {
    this.progressed = false;
    if (!Number.isFinite(this.limit.stallMs)) return;
    this.timer = setTimeout(this.look, this.limit.stallMs);
    this.timer.unref();
  }

  private readonly look = (): void => {
    this.timer = undefined;
    const length = this.res.writableLength;
    if (this.res.destroyed || length <= this.limit.maxBytes) return;
    const reading = this.progressed || length < this.lastLength;
    this.lastLength = length;
    if (reading) this.arm();
    else this.onStalled();
  };
}
