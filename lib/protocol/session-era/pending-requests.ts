import { ClientError, PhantomError } from '../../core/errors';
import type { JsonRpcResponse, RequestId } from '../../core/jsonrpc';
import { uniqueId } from '../../core/unique-id';
import type { JsonObject } from '../../core/wire.types';

interface Waiter {
  /** The method of the request to the client, so that its error says what failed. */
  readonly method: string;
  resolve(result: JsonObject): void;
  reject(error: Error): void;
}

/**
 * Server-to-client requests of this node waiting for the client's response, keyed by session and
 * request id, so a response can only ever complete a request of its own session.
 */
export class PendingRequests {
  private readonly waiting = new Map<string, Waiter>();
  /** What every id this table makes starts with: unique to it among all nodes (and all servers of a process). */
  private readonly origin = `${uniqueId()}:`;
  private made = 0;

  /**
   * A fresh id for a request to the client, unique across nodes: the client may answer on any
   * node, which forwards the answer to the session, and a second replica must not reuse it.
   */
  allocateId(): string {
    this.made += 1;
    return `${this.origin}${this.made.toString(36)}`;
  }

  /**
   * Who made `id`: this node (`here`), another node (`elsewhere`: the shape of an id one of them
   * would make), or `nobody` (an id the client made up). Only another node's answer is worth
   * sending on over the bus.
   */
  madeBy(id: unknown): 'here' | 'elsewhere' | 'nobody' {
    if (typeof id !== 'string' || !ID_SHAPE.test(id)) return 'nobody';
    return id.startsWith(this.origin) ? 'here' : 'elsewhere';
  }

  wait(sessionId: string, id: RequestId, method: string, timeoutMs: number | undefined, signal: AbortSignal): Promise<JsonObject> {
    const key = keyOf(sessionId, id);
    return new Promise<JsonObject>((resolve, reject) => {
      const finish = () => {
        this.waiting.delete(key);
        if (timer) clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
      };
      const onAbort = () => {
        finish();
        reject(new PhantomError('request_aborted', 'The request waiting for the client was cancelled'));
      };
      const timer = timeoutMs === undefined ? undefined : setTimeout(() => {
        finish();
        reject(new PhantomError('request_timeout', `The client did not answer within ${timeoutMs} ms`));
      }, timeoutMs);
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.set(key, {
        method,
        resolve: (result) => { finish(); resolve(result); },
        reject: (error) => { finish(); reject(error); },
      });
    });
  }

  /** Completes the waiting request; `false` when nothing of that session waits for this id. */
  settle(sessionId: string, response: JsonRpcResponse): boolean {
    if (response.id === null) return false;
    const waiter = this.waiting.get(keyOf(sessionId, response.id));
    if (!waiter) return false;
    if ('result' in response) waiter.resolve(response.result);
    // The client's error is its own, not one of ours to forward: the waiting handler sees it.
    else waiter.reject(ClientError.answered(waiter.method, response.error));
    return true;
  }

  /** Fails every request of a session that ended. */
  abandon(sessionId: string): void {
    const prefix = `${sessionId}\u0000`;
    for (const [key, waiter] of this.waiting) {
      if (key.startsWith(prefix)) waiter.reject(new PhantomError('session_closed', 'The session ended before the client answered'));
    }
  }
}

/** `allocateId()`'s shape on any node: `uniqueId()` (12 hex digits, a dash, base 36), a colon, base 36. */
const ID_SHAPE = /^[0-9a-f]{12}-[0-9a-z]{1,11}:[0-9a-z]{1,11}$/;

function keyOf(sessionId: string, id: RequestId): string {
  return `${sessionId}\u0000${typeof id}:${id}`;
}
