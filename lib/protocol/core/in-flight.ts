import { Cancellation } from '../../core/cancellation';
import { requestIdInUse, tooManyRequests, type ErrorObject } from '../../core/error-mapper';
import type { RequestId } from '../../core/jsonrpc';

/**
 * Requests being handled, by session and id, so `notifications/cancelled` can abort them. Ids
 * are map keys as they are: `1` and `"1"` stay distinct, and no key string is built per request.
 */
export class InFlight {
  private readonly sessions = new Map<string, Map<RequestId, Cancellation>>();

  /**
   * Why a request may not start now, if it may not: its id is that of a request of the session
   * still running (a second entry would replace the first, which could then no longer be
   * cancelled, and reused ids would slip past the cap), or `limit` requests are running.
   * `holder` names what the cap is counted per in the error (a session, or a pipe's connection).
   */
  refusal(sessionId: string, id: RequestId, limit: number, holder = 'session'): ErrorObject | undefined {
    const running = this.sessions.get(sessionId);
    if (running?.has(id)) return requestIdInUse(id, holder);
    return (running?.size ?? 0) >= limit ? tooManyRequests(limit, holder) : undefined;
  }

  /** Registers a request; `cancellation` is the transport's when it may cancel the request itself (closing). */
  start(sessionId: string, id: RequestId, cancellation = new Cancellation()): Cancellation {
    let running = this.sessions.get(sessionId);
    if (!running) this.sessions.set(sessionId, (running = new Map()));
    running.set(id, cancellation);
    return cancellation;
  }

  finish(sessionId: string, id: RequestId): void {
    const running = this.sessions.get(sessionId);
    if (!running) return;
    running.delete(id);
    if (running.size === 0) this.sessions.delete(sessionId);
  }

  cancel(sessionId: string, id: unknown, reason?: unknown): boolean {
    if (typeof id !== 'string' && typeof id !== 'number') return false;
    const cancellation = this.sessions.get(sessionId)?.get(id);
    cancellation?.cancel(reason ?? 'cancelled by the client');
    return cancellation !== undefined;
  }

  /** Whether the session has a request running. */
  busy(sessionId: string): boolean {
    return this.sessions.has(sessionId);
  }

  cancelSession(sessionId: string, reason = 'session ended'): void {
    for (const cancellation of this.sessions.get(sessionId)?.values() ?? []) cancellation.cancel(reason);
    this.sessions.delete(sessionId);
  }
}
