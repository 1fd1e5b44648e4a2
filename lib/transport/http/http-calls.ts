import type { HttpResponseLike } from './http-like.types';
import { Cancellation } from '../../core/cancellation';
import type { ErrorObject } from '../../core/error-mapper';
import { failure, type JsonRpcBatchResponse, type JsonRpcResponse, type RequestId } from '../../core/jsonrpc';
import type { AdmittedBatch } from '../../protocol/in-flight';
import type { Drainable } from '../drain';
import type { HttpExchange } from './http-exchange';

/** A request (or a batch) POSTed and in flight: how its answer, or its lack of one, goes out, and how closing gives up on it. */
export interface HttpInFlight extends Drainable {
  /** The response it will be answered on (closing asks for `Connection: close` while it can). */
  readonly res: HttpResponseLike;
  /** Sends the answer; `status` and `headers` (a challenge) apply while nothing has been streamed yet. */
  respond(response: JsonRpcResponse | JsonRpcBatchResponse, status: number, headers?: Readonly<Record<string, string>>): void;
  /** The request was cancelled: no answer, and the exchange ends. */
  abandon(): void;
}

/**
 * One request POSTed on its own, in either era. In the stateless era (`closeCancels`) the client
 * closing the connection before the answer cancels the request: nothing can resume it there.
 */
export class PostedCall implements HttpInFlight {
  /** The request's cancellation, owned here so that closing can cancel it. */
  readonly cancellation = new Cancellation();

  constructor(readonly res: HttpResponseLike, readonly exchange: HttpExchange, private readonly id: RequestId, closeCancels = false) {
    if (!closeCancels) return;
    const closed = () => {
      if (!exchange.answered) this.cancellation.cancel('the client closed the response stream');
    };
    if (res.destroyed) closed();
    else res.once('close', closed);
  }

  respond(response: JsonRpcResponse | JsonRpcBatchResponse, status = 200, headers?: Readonly<Record<string, string>>): void {
    this.exchange.respond(response, status, headers);
  }

  abandon(): void {
    this.exchange.abandon();
  }

  giveUp(reason: Error, error: ErrorObject): void {
    this.cancellation.cancel(reason);
    this.exchange.respond(failure(this.id, error));
  }
}

/**
 * A 2025-03-26 batch, answered as a whole with what its requests have by then (with 200 whatever
 * its elements came to). Registered before its elements are admitted (notifications first, in
 * order), so that closing cannot miss it.
 */
export class BatchCall implements HttpInFlight {
  /** Not cancelled by anything: each request of the batch has its own, which closing cancels. */
  readonly cancellation = new Cancellation();
  private batch?: AdmittedBatch;
  private pending?: { readonly reason: Error; readonly error: ErrorObject };

  constructor(readonly res: HttpResponseLike, readonly exchange: HttpExchange) {}

  admitted(batch: AdmittedBatch): void {
    this.batch = batch;
    if (this.pending) this.giveUp(this.pending.reason, this.pending.error);
  }

  respond(responses: JsonRpcResponse | JsonRpcBatchResponse): void {
    this.exchange.respond(responses);
  }

  abandon(): void {
    this.exchange.abandon();
  }

  giveUp(reason: Error, error: ErrorObject): void {
    if (!this.batch) this.pending = { reason, error };
    else if (this.batch.requests > 0) this.exchange.respond(this.batch.giveUp(reason, error));
  }
}
