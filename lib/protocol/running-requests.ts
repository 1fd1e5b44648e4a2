import type { Cancellation } from '../core/cancellation';
import { requestIdInUse, tooManyRequests, type ErrorObject } from '../core/error-mapper';
import type { RequestId } from '../core/jsonrpc';

/**
 * The one table of requests that can be cancelled by id, by scope: a session's id (session era),
 * a pipe connection's scope (stateless era on a pipe, where `notifications/cancelled` names a
 * request of the connection). A stateless HTTP request is its own scope: nothing can name it, and
 * the stream closing cancels it through the transport's own `Cancellation`, so it is not entered.
 * Ids are map keys as they are: `1` and `"1"` stay distinct, and no key string is built per request.
 */
export class RunningRequests {
  private readonly scopes = new Map<string, Map<RequestId, Cancellation>>();

  /**
   * Why a request may not start now, if it may not: its id is that of a request of the scope still
   * running (a second entry would replace the first, which could then no longer be cancelled, and
   * reused ids would slip past the cap), or `limit` requests are running. `holder` names what the
   * cap is counted per in the error (a session, or a pipe's connection).
   */
  refusal(scope: string, id: RequestId, limit: number, holder = 'session'): ErrorObject | undefined {
    const running = this.scopes.get(scope);
    if (running?.has(id)) return requestIdInUse(id, holder);
    return (running?.size ?? 0) >= limit ? tooManyRequests(limit, holder) : undefined;
  }

  /** Registers a request with its cancellation (the transport's, so that closing can cancel it too). */
  start(scope: string, id: RequestId, cancellation: Cancellation): void {
    let running = this.scopes.get(scope);
    if (!running) this.scopes.set(scope, (running = new Map()));
    running.set(id, cancellation);
  }

  finish(scope: string, id: RequestId): void {
    const running = this.scopes.get(scope);
    if (!running) return;
    running.delete(id);
    if (running.size === 0) this.scopes.delete(scope);
  }

  /** Cancels the request `id` of `scope`; `false` when none runs here (it may run on another node). */
  cancel(scope: string, id: unknown, reason?: unknown): boolean {
    if (typeof id !== 'string' && typeof id !== 'number') return false;
    const cancellation = this.scopes.get(scope)?.get(id);
    cancellation?.cancel(reason ?? 'cancelled by the client');
    return cancellation !== undefined;
  }

  /** Whether the scope has a request running. */
  busy(scope: string): boolean {
    return this.scopes.has(scope);
  }

  /** The scopes with a request running (a shared session store keeps these sessions alive). */
  busyScopes(): IterableIterator<string> {
    return this.scopes.keys();
  }

  /** Cancels every request of a scope that ended (a session, a pipe). */
  cancelScope(scope: string, reason: unknown = 'session ended'): void {
    const running = this.scopes.get(scope);
    this.scopes.delete(scope);
    for (const cancellation of running?.values() ?? []) cancellation.cancel(reason);
  }
}
