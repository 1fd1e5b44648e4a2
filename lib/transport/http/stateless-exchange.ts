import type { HttpResponseLike } from './http-like.types';
import { Cancellation } from '../../core/cancellation';
import type { Exchange } from '../../protocol/in-flight';
import type { ErrorObject } from '../../core/error-mapper';
import { failure, type JsonRpcBatchResponse, type JsonRpcMessage, type JsonRpcResponse, type RequestId } from '../../core/jsonrpc';
import type { HttpWay } from './http-calls';
import { writeJson } from './http-replies';
import { messageEvent, SSE_HEADERS } from './sse-framing';
import { UNLIMITED, UnreadWatch, type UnreadLimit } from './unread-watch';

/**
 * The way back for one stateless-era request: plain JSON when only the response goes out, SSE
 * (without resumption: the era has none) as soon as a notification must go first. The client
 * closing the connection cancels the request.
 */
export class StatelessExchange implements Exchange, HttpWay {
  private streaming = false;
  private done = false;
  /** Cancelled when the client closes the response stream before the response. */
  readonly cancellation = new Cancellation();
  /** Set when the answer turns into a stream. */
  private watch?: UnreadWatch;

  constructor(
    readonly res: HttpResponseLike,
    private readonly headers: Readonly<Record<string, string>>,
    private readonly id: RequestId,
    /** What the connection may leave unread (`HttpOptions.maxSseBufferBytes`, `sseStallTimeoutMs`). */
    private readonly unread: UnreadLimit = UNLIMITED,
  ) {
    const closed = () => {
      this.watch?.stop();
      if (!this.done) this.cancellation.cancel('the client closed the response stream');
    };
    if (res.destroyed) closed();
    else res.once('close', closed);
  }

  /** It is its own way back. */
  get exchange(): Exchange {
    return this;
  }

  get open(): boolean {
    return !this.done && !this.res.destroyed && !this.res.writableEnded;
  }

  send(message: JsonRpcMessage): void {
    if (!this.open) return;
    if (!this.streaming) {
      this.streaming = true;
      this.res.writeHead(200, { ...this.headers, ...SSE_HEADERS });
      this.res.flushHeaders();
      // A client that stopped reading: the call ends as if it had closed the stream (no resumption in this era).
      this.watch = new UnreadWatch(this.res, this.unread, () => this.res.destroy());
    }
    this.watch!.write(messageEvent(message));
  }

  /** Closing gave up on the request: its handler is cancelled, and the client answered with `error` now. */
  giveUp(reason: Error, error: ErrorObject): void {
    this.cancellation.cancel(reason);
    this.finish(200, failure(this.id, error));
  }

  respond(response: JsonRpcResponse | JsonRpcBatchResponse, status: number, headers?: Readonly<Record<string, string>>): void {
    this.finish(status, response as JsonRpcResponse, headers);
  }

  /** Cancelled, or a listen stream the client left: no response. */
  abandon(): void {
    this.finish(200);
  }

  finish(status: number, response?: JsonRpcResponse, headers?: Readonly<Record<string, string>>): void {
    if (this.done) return;
    this.done = true;
    if (this.res.destroyed) return;
    if (this.streaming) {
      if (response) this.watch!.write(messageEvent(response));
      this.res.end();
      return;
    }
    if (!response) {
      this.res.writeHead(204, this.headers);
      this.res.end();
      return;
    }
    writeJson(this.res, status, headers === undefined ? this.headers : { ...this.headers, ...headers }, JSON.stringify(response));
  }
}
