import type { HttpResponseLike } from './http-like.types';
import type { Exchange } from '../../protocol/in-flight';
import type { JsonRpcBatchResponse, JsonRpcMessage, JsonRpcResponse } from '../../core/jsonrpc';
import type { AnswerStream, AnswerStreams } from './answer-streams';
import { writeJson } from './http-replies';
import { SESSION_HEADER } from './request-gate';

/**
 * The way back for one POSTed request (or batch), in either era: the one place HTTP decides
 * between JSON and SSE. The answer is plain JSON when the request produces nothing but its
 * response, and turns into an SSE stream (of the era's kind: `streams`) the moment a
 * notification or a server-to-client request must go out first (progress, logging, elicitation).
 */
export class HttpExchange implements Exchange {
  private stream?: AnswerStream;
  private responded = false;
  private withSession?: Readonly<Record<string, string>>;

  /**
   * `cors`: the CORS headers every answer carries, JSON or SSE; `sessionId`: the session whose
   * stream the answer turns into (session era), named by every answer's `Mcp-Session-Id`.
   */
  constructor(
    private readonly res: HttpResponseLike,
    private readonly cors: Readonly<Record<string, string>>,
    private readonly streams: AnswerStreams,
    private readonly sessionId?: string,
  ) {}

  /** What every answer carries, as one object: built only for an answer that needs one (a stream, a challenge). */
  private get responseHeaders(): Readonly<Record<string, string>> {
    if (this.sessionId === undefined) return this.cors;
    return (this.withSession ??= { ...this.cors, [SESSION_HEADER]: this.sessionId });
  }

  /** True once the answer went out (or was given up): nothing more is sent. */
  get answered(): boolean {
    return this.responded;
  }

  get open(): boolean {
    return !this.responded && (this.stream ? this.stream.open : !this.res.destroyed);
  }

  send(message: JsonRpcMessage): void {
    if (this.responded) return;
    this.upgrade()?.send(message);
  }

  /**
   * Sends the final answer and ends the exchange: on the stream once there is one, else as JSON
   * with `status` and `headers` (a refused call: 403 with its challenge).
   */
  respond(response: JsonRpcResponse | JsonRpcBatchResponse, status = 200, headers?: Readonly<Record<string, string>>): void {
    if (this.responded) return;
    this.responded = true;
    if (this.stream) return this.stream.end(Array.isArray(response) ? response : [response]);
    if (this.res.destroyed) return;
    if (headers === undefined) writeJson(this.res, status, this.cors, JSON.stringify(response), this.sessionId === undefined ? undefined : SESSION_HEADER, this.sessionId);
    else writeJson(this.res, status, { ...this.responseHeaders, ...headers }, JSON.stringify(response));
  }

  /** Ends the exchange without a response (a cancelled request, a listen stream left): the era's empty answer. */
  abandon(): void {
    if (this.responded) return;
    this.responded = true;
    if (this.stream) this.stream.end([]);
    else if (!this.res.destroyed) this.streams.empty(this.res, this.responseHeaders);
  }

  /** Switches to SSE if needed, then drops the connection: the client resumes with `Last-Event-ID` (session era only). */
  async disconnect(): Promise<void> {
    if (this.responded || !this.streams.resumable) return;
    await this.upgrade()?.disconnect?.();
  }

  private upgrade(): AnswerStream | undefined {
    return (this.stream ??= this.streams.open(this.res, this.responseHeaders, this.sessionId));
  }
}
