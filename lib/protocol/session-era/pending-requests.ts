import { ClientError, PhantomError } from '../../core/errors';
import type { JsonRpcResponse, RequestId } from '../../core/jsonrpc';
import { uniqueId } from '../../core/unique-id';
import type { JsonObject } from '../../core/wire.types';

/** `maxPendingBytesPerSession`'s default. */
export const DEFAULT_MAX_PENDING_BYTES_PER_SESSION = 8 * 1024 * 1024;

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
  /** The bytes of each session's requests still waiting (only sessions with some). */
  private readonly held = new Map<string, number>();
  /** What every id this table makes starts with: unique to it among all nodes (and all servers of a process). */
  private readonly origin = `${uniqueId()}:`;
  private made = 0;

  /**
   * `maxBytesPerSession`: what one session's unanswered requests may hold, in bytes of their
   * params (`maxPendingBytesPerSession`): each keeps its message until the client answers, the
   * request times out or the session ends, and a client that never answers must not pin memory.
   */
  constructor(private readonly maxBytesPerSession = Infinity) {}

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

  /**
   * Waits for the client's answer to the request `id`, whose params take `bytes`. Throws at once,
   * before the caller sends the request (`pending_bytes`), when the session's unanswered requests
   * would hold more than the limit.
   */
  wait(sessionId: string, id: RequestId, method: string, timeoutMs: number | undefined, signal: AbortSignal, bytes = 0): Promise<JsonObject> {
    const key = keyOf(sessionId, id);
    const held = this.held.get(sessionId) ?? 0;
    if (bytes > 0 && held + bytes > this.maxBytesPerSession) {
      throw new PhantomError('pending_bytes', `The client has not answered earlier requests of this session (${held} bytes waiting; at most ${this.maxBytesPerSession}): ${method} was not sent`);
    }
    if (bytes > 0) this.held.set(sessionId, held + bytes);
    return new Promise<JsonObject>((resolve, reject) => {
      const finish = () => {
        if (!this.waiting.delete(key)) return;
        this.release(sessionId, bytes);
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
      this.waiting.set(key, {
        method,
        resolve: (result) => { finish(); resolve(result); },
        reject: (error) => { finish(); reject(error); },
      });
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** What `wait` counts of a request's params: their length as JSON. */
  static sizeOf(params: JsonObject): number {
    return JSON.stringify(params).length;
  }

  private release(sessionId: string, bytes: number): void {
    if (bytes === 0) return;
    const left = (this.held.get(sessionId) ?? 0) - bytes;
    if (left > 0) this.held.set(sessionId, left);
    else this.held.delete(sessionId);
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
