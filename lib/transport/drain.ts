import type { ErrorObject } from '../core/error-mapper';
import { ServerClosingError, SHUTDOWN_ERRORS } from '../core/shutdown';
import type { InFlight } from '../protocol/in-flight';
import { RunningCalls } from './running-calls';

/** A request in flight as closing sees it: one it can give up on. */
export interface Drainable extends InFlight {
  /** Cancels its handler with `reason` (`ctx.signal`) and answers it with `error` now; its own answer, later, is dropped. */
  giveUp(reason: Error, error: ErrorObject): void;
}

/**
 * What a transport has in flight, so that closing can wait for it: the one graceful shutdown of
 * every transport (HTTP on Node and behind `fetch`, stdio, in-memory). Requests being answered are
 * kept apart from `subscriptions/listen` streams, which never finish on their own. A transport
 * registers a request (`track`) where the dispatcher admits it, and forgets it once it is answered.
 */
export class Drain<Call extends Drainable> {
  private readonly calls = new RunningCalls<Call>();
  private readonly listens = new RunningCalls<Call>();
  private stopped = false;

  /** False once `stop` was called: the transport takes no new request. */
  get accepting(): boolean {
    return !this.stopped;
  }

  /** Takes no new request from now on (the transport answers them with `SHUTDOWN_ERRORS.refused`). */
  stop(): void {
    this.stopped = true;
  }

  /** Registers a request that closing waits for (`listen`: a `subscriptions/listen` stream). */
  track(call: Call, listen: boolean): void {
    (listen ? this.listens : this.calls).add(call);
  }

  /** Forgets a request registered with `track`, once it is answered (or given up on). */
  untrack(call: Call, listen: boolean): void {
    (listen ? this.listens : this.calls).delete(call);
  }

  /** The requests being answered now, listen streams apart, oldest first (a snapshot). */
  running(): Iterable<Call> {
    return this.calls;
  }

  /**
   * Closing: requests being answered may finish within `ms`; those left are given up on
   * (cancelled, and answered with `SHUTDOWN_ERRORS.cancelled`), listen streams are cancelled, then
   * `streamsEnd` runs (HTTP ends its SSE streams once what the given-up requests sent is stored),
   * and listen streams get `ms` more to send their closing response.
   */
  async settle(ms: number, streamsEnd?: () => Promise<void>): Promise<void> {
    await this.calls.settled(ms);
    const reason = new ServerClosingError();
    for (const call of this.calls) call.giveUp(reason, SHUTDOWN_ERRORS.cancelled);
    for (const listen of this.listens) listen.cancellation.cancel(reason);
    await streamsEnd?.();
    await this.listens.settled(ms);
  }

  /**
   * The client went away (a pipe's input ended): listen streams end now with `reason`, and requests
   * being answered get `ms` to answer; none is given up on, as no one is left to read an error.
   */
  async abandon(ms: number, reason: unknown): Promise<void> {
    for (const listen of this.listens) listen.cancellation.cancel(reason);
    await this.calls.settled(ms);
  }
}
