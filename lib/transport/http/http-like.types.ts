import type { IncomingHttpHeaders } from 'node:http';

/**
 * What the HTTP transport reads of a request. Node's `IncomingMessage` satisfies it as it is (the
 * node path wraps nothing); the fetch adapter offers a view of a web `Request` that does.
 */
export interface HttpRequestLike {
  readonly method?: string;
  /** The path and query, as on the request line (`/mcp?x=1`). */
  readonly url?: string;
  /** Header values by lower-cased name, repeated ones joined as Node joins them. */
  readonly headers: IncomingHttpHeaders;
  /** Names and values as sent, flat (`[name, value, name, value, ...]`): how a repeated header shows. */
  readonly rawHeaders: readonly string[];
}

/**
 * What the HTTP transport does with a response: a status and headers, then either one body or a
 * stream of SSE chunks. Node's `ServerResponse` satisfies it as it is; the fetch adapter's
 * response becomes a web `Response`. `close` is emitted once the response is over, answered or
 * cut off by the client (`destroyed` then tells which).
 */
export interface HttpResponseLike {
  readonly headersSent: boolean;
  readonly destroyed: boolean;
  readonly writableEnded: boolean;
  /** Bytes written but not yet taken by the client (a client that stops reading makes it grow). */
  readonly writableLength: number;
  /** Sets one header before the status is written (the handler sets `Connection: close` while it closes). */
  setHeader(name: string, value: string): unknown;
  /** Headers as an object, or flat (`[name, value, ...]`, what the hot path builds). */
  writeHead(status: number, headers?: Readonly<Record<string, string>> | string[]): unknown;
  /** Sends the status and headers now, before any body: an SSE stream starts here. */
  flushHeaders(): void;
  /** Writes a body chunk (an SSE event) after the headers. */
  write(chunk: string): unknown;
  /** Ends the response, with a last chunk (a JSON body) or none. */
  end(chunk?: string): unknown;
  /** Listens for the end of the response (see above). */
  once(event: 'close', listener: () => void): unknown;
  /** Drops the connection at once, with whatever is still buffered (emits `close`). */
  destroy(): unknown;
}
