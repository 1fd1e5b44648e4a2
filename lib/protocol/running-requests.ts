import type { Cancellation } from '../core/cancellation';
import { requestIdInUse, tooManyRequests, type ErrorObject } from '../core/error-mapper';
import type { RequestId } from '../core/jsonrpc';

/**
 * The one table of requests that can be cancelled by id, by scope: a session's id (session era),
 * a pipe connection's scope (stateless era on a pipe, where `notifications/cancelled` names a
 * request of the connection). A stateless HTTP request is its own scope: nothing can name it, and
 * the stream closing cancels it through the transport's own `Cancellation`, so it is not entered.
 * Ids are map keys as they are: `1` and `"1"` stay distinct, and no key string is built per request.
 *
 * A scope's entry stays from its first request until the scope ends (`cancelScope`: the session
 * ended, the pipe closed), not only while a request runs: a client that waits for each answer
 * would otherwise add and remove the entry, and a table inside it, on every request, and V8
 * reallocates a Map's table each way (measured: about half a microsecond a request).
 */
export class RunningRequests {
  private readonly scopes = new Map<string, ScopeRequests>();

  /**
   * Why a request may not start now, if it may not: its id is that of a request of the scope still
   * running (a second entry would replace the first, which could then no longer be cancelled, and
   * reused ids would slip past the cap), or `limit` requests are running. `holder` names what the
   * cap is counted per in the error (a session, or a pipe's connection).
   */
  refusal(scope: string, id: RequestId, limit: number, holder = 'session'): ErrorObject | undefined {
    const running = this.scopes.get(scope);
    if (running?.get(id) !== undefined) return requestIdInUse(id, holder);
    return (running?.size ?? 0) >= limit ? tooManyRequests(limit, holder) : undefined;
  }

  /** Registers a request with its cancellation (the transport's, so that closing can cancel it too). */
  start(scope: string, id: RequestId, cancellation: Cancellation): void {
    let running = this.scopes.get(scope);
    if (!running) this.scopes.set(scope, (running = new ScopeRequests()));
    running.set(id, cancellation);
  }

  finish(scope: string, id: RequestId): void {
    this.scopes.get(scope)?.delete(id);
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
    return (this.scopes.get(scope)?.size ?? 0) > 0;
  }

  /** The scopes with a request running (a shared session store keeps these sessions alive). */
  *busyScopes(): IterableIterator<string> {
    for (const [scope, running] of this.scopes) if (running.size > 0) yield scope;
  }

  /** Cancels every request of a scope that ended (a session, a pipe), and forgets the scope. */
  cancelScope(scope: string, reason: unknown = 'session ended'): void {
    const running = this.scopes.get(scope);
    this.scopes.delete(scope);
    for (const cancellation of running?.values() ?? []) cancellation.cancel(reason);
  }
}

/**
 * The requests of one scope running here, in the order they started: a lone one in fields of its
 * own, more in a Map (`more` is empty while `solo` holds one).
 */
class ScopeRequests {
  private soloId?: RequestId;
  private solo?: Cancellation;
  private more?: Map<RequestId, Cancellation>;

  get size(): number {
    return this.solo !== undefined ? 1 : (this.more?.size ?? 0);
  }

  get(id: RequestId): Cancellation | undefined {
    if (this.solo !== undefined) return this.soloId === id ? this.solo : undefined;
    return this.more?.get(id);
  }

  set(id: RequestId, cancellation: Cancellation): void {
    if (this.solo !== undefined && this.soloId === id) {
      this.solo = cancellation;
    } else if (this.solo === undefined && (this.more?.size ?? 0) === 0) {
      this.soloId = id;
      this.solo = cancellation;
    } else {
      this.more ??= new Map();
      // The lone request goes in first, as the older one.
      if (this.solo !== undefined) this.more.set(this.soloId!, this.solo);
      this.soloId = undefined;
      this.solo = undefined;
      this.more.set(id, cancellation);
    }
  }

  delete(id: RequestId): void {
    if (this.solo !== undefined && this.soloId === id) {
      this.soloId = undefined;
      this.solo = undefined;
    } else this.more?.delete(id);
  }

  values(): Cancellation[] {
    return this.solo !== undefined ? [this.solo] : [...(this.more?.values() ?? [])];
  }
}
