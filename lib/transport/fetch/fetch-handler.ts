import type { StreamableHttpHandler } from '../http/streamable-http.handler';
import { FetchRequestView } from './fetch-request';
import { FetchResponse } from './fetch-response';

/**
 * Streamable HTTP as a web-standard handler, `(request: Request) => Promise<Response>`: serve it
 * from Hono, Bun, Deno, Cloudflare Workers or a Next.js route handler. `close()` drains it as
 * `StreamableHttpHandler#close` does.
 *
 * @example
 * const mcp = server.fetchHandler({ allowedHosts: ['mcp.example.com'] });
 * app.all('/mcp', (c) => mcp(c.req.raw));   // Hono
 */
export interface FetchHandler {
  (request: Request): Promise<Response>;
  /** Shuts the handler down gracefully, as `StreamableHttpHandler#close` does; calling it again returns the same promise. */
  close(): Promise<void>;
}

/**
 * The fetch adapter over the one HTTP handler: every guard, era, status and body is the node
 * path's, through a view of the `Request` and a response that becomes the `Response`.
 */
export function fetchHandlerOf(handler: StreamableHttpHandler): FetchHandler {
  const serve = (request: Request): Promise<Response> => {
    const res = new FetchResponse(request.signal);
    // The handler never throws; the `Response` is there once its headers are, long before a stream ends.
    void handler.handle(new FetchRequestView(request), res).then(() => res.unanswered());
    return res.response;
  };
  return Object.assign(serve, { close: () => handler.close() });
}
