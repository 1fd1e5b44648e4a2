import type { HttpResponseLike } from './http-like.types';
import type { Exchange } from '../../protocol/in-flight';
import type { JsonRpcMessage, JsonRpcResponse } from '../../core/jsonrpc';
import { writeJson } from './http-replies';
import { SSE_HEADERS } from './sse-framing';
import type { SseStream } from './sse-stream';

/** What a POST exchange needs from the handler: how to open a stream of the session. */
export interface StreamFactory {
  open(sessionId: string): SseStream;
}

/**
 * The way back for one POSTed request. It answers with plain JSON when the request produces
 * nothing but its response, and switches to SSE the moment a notification or a server-to-client
 * request must go out first (progress, logging, elicitation).
 */
export class PostExchange implements Exchange {
  private stream?: SseStream;
  private responded = false;

  /** `responseHeaders`: what every answer carries (CORS, the session's id), JSON or SSE. */
  constructor(
    private readonly res: HttpResponseLike,
    private readonly sessionId: string,
    private readonly streams: StreamFactory,
    private readonly responseHeaders: Readonly<Record<string, string>>,
  ) {}

  get open(): boolean {
    return !this.responded && (this.stream ? this.stream.connected : !this.res.destroyed);
  }

  send(message: JsonRpcMessage): void {
    if (this.responded) return;
    this.upgrade().send(message);
  }

  /**
   * Sends the final response and ends the exchange: on the stream once there is one, else as JSON
   * with `status` and `headers` (a refused call: 403 with its challenge).
   */
  respond(response: JsonRpcResponse, status = 200, headers?: Readonly<Record<string, string>>): void {
    if (this.responded) return;
    this.responded = true;
    if (this.stream) {
      void this.stream.send(response);
      void this.stream.finish();
      return;
    }
    if (this.res.destroyed) return;
    writeJson(this.res, status, headers === undefined ? this.responseHeaders : { ...this.responseHeaders, ...headers }, JSON.stringify(response));
  }

  /** Sends the responses of a batch (protocol 2025-03-26): one JSON array, or each on the stream. */
  respondBatch(responses: readonly JsonRpcResponse[]): void {
    if (this.responded) return;
    this.responded = true;
    if (this.stream) {
      for (const response of responses) void this.stream.send(response);
      void this.stream.finish();
      return;
    }
    if (this.res.destroyed) return;
    writeJson(this.res, 200, this.responseHeaders, JSON.stringify(responses));
  }

  /**
   * Ends the exchange without a response (a cancelled request): the spec lets a POST carrying a
   * request be answered only with JSON or an event stream, so it is an event stream that ends.
   */
  abandon(): void {
    if (this.responded) return;
    this.responded = true;
    if (this.stream) void this.stream.finish();
    else if (!this.res.destroyed) {
      this.res.writeHead(200, { ...this.responseHeaders, ...SSE_HEADERS });
      this.res.end();
    }
  }

  /** Switches to SSE if needed, then drops the connection: the client resumes with `Last-Event-ID`. */
  async disconnect(): Promise<void> {
    if (this.responded) return;
    await this.upgrade().disconnect();
  }

  private upgrade(): SseStream {
    if (this.stream) return this.stream;
    this.stream = this.streams.open(this.sessionId);
    if (!this.res.destroyed) {
      this.res.writeHead(200, { ...this.responseHeaders, ...SSE_HEADERS });
      this.res.flushHeaders();
      this.stream.attach(this.res);
    }
    void this.stream.prime();
    return this.stream;
  }
}
