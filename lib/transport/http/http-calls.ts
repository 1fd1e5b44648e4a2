import type { HttpResponseLike } from './http-like.types';
import { Cancellation } from '../../core/cancellation';
import type { ErrorObject } from '../../core/error-mapper';
import { failure, type JsonRpcBatchResponse, type JsonRpcResponse, type RequestId } from '../../core/jsonrpc';
import type { AdmittedBatch, InFlight } from '../../protocol/in-flight';
import type { PostExchange } from './post-exchange';

/** A request the HTTP handler is answering, as closing sees it. */
export interface HttpCall {
  /** The response it will be answered on (closing asks for `Connection: close` while it can). */
  readonly res: HttpResponseLike;
  /** Cancels its handler with `reason` (`ctx.signal`) and answers it with `error` now; its own answer, later, is dropped. */
  giveUp(reason: Error, error: ErrorObject): void;
}

/** The way back the handler opened for a POSTed request: how its answer, or its lack of one, goes out. */
export interface HttpWay extends InFlight, HttpCall {
  /** Sends the answer; `status` and `headers` (a challenge) apply while nothing has been streamed yet. */
  respond(response: JsonRpcResponse | JsonRpcBatchResponse, status: number, headers?: Readonly<Record<string, string>>): void;
  /** The request was cancelled: no answer, and the exchange ends. */
  abandon(): void;
}

/** One session-era request POSTed on its own. */
export class PostedCall implements HttpWay {
  /** The request's cancellation, owned here so that closing can cancel it. */
  readonly cancellation = new Cancellation();

  constructor(readonly res: HttpResponseLike, readonly exchange: PostExchange, private readonly id: RequestId) {}

  respond(response: JsonRpcResponse | JsonRpcBatchResponse, status = 200, headers?: Readonly<Record<string, string>>): void {
    this.exchange.respond(response as JsonRpcResponse, status, headers);
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
 * A 2025-03-26 batch, answered as a whole with what its requests have by then. Registered before
 * its elements are admitted (notifications first, in order), so that closing cannot miss it.
 */
export class BatchCall implements HttpWay {
  /** Not cancelled by anything: each request of the batch has its own, which closing cancels. */
  readonly cancellation = new Cancellation();
  private batch?: AdmittedBatch;
  private pending?: { readonly reason: Error; readonly error: ErrorObject };

  constructor(readonly res: HttpResponseLike, readonly exchange: PostExchange) {}

  admitted(batch: AdmittedBatch): void {
    this.batch = batch;
    if (this.pending) this.giveUp(this.pending.reason, this.pending.error);
  }

  respond(responses: JsonRpcResponse | JsonRpcBatchResponse): void {
    this.exchange.respondBatch(responses as JsonRpcBatchResponse);
  }

  abandon(): void {
    this.exchange.abandon();
  }

  giveUp(reason: Error, error: ErrorObject): void {
    if (!this.batch) this.pending = { reason, error };
    else if (this.batch.requests > 0) this.exchange.respondBatch(this.batch.giveUp(reason, error));
  }
}
