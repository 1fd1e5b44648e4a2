import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { defaultMaxConnections, limitConnections } from './connection-limit';
import { healthSettings, type HealthSettings } from './health-probes';
import { HTTP_DEFAULTS, type ListenOptions } from './http-options';
import { refusals, replyError } from './http-replies';
import type { StreamableHttpHandler } from './streamable-http.handler';

/** A running HTTP endpoint. */
export interface HttpListener {
  /** The endpoint, e.g. `http://127.0.0.1:3000/mcp`. */
  readonly url: string;
  readonly port: number;
  readonly server: Server;
  /**
   * Shuts the endpoint down gracefully: readiness answers 503 at once (and for
   * `health.drainDelayMs` the endpoint goes on serving as before); then new connections are
   * refused, a request arriving on a connection still open gets 503, calls in flight may finish
   * within `shutdownTimeoutMs` and those left are cancelled and answered with an error, SSE
   * streams end with their events stored (see `StreamableHttpHandler#close`). Resolves when
   * every connection is closed; calling it again returns the same promise.
   */
  close(): Promise<void>;
}

/**
 * Node's deadlines for receiving a request, which apply until the request is fully received and
 * never to the response (an SSE stream may last for hours): what `listen()` gives its server, from
 * `headersTimeoutMs` and `bodyTimeoutMs` (10 s and 30 s by default), for an application's own
 * `node:http` server. Node checks them every `connectionsCheckingInterval` (30 s by default, too
 * coarse for short deadlines), so that is set too.
 *
 * @example
 * const http = createServer(requestDeadlines({}), (req, res) => route(req, res)); // 408 past them
 */
export function requestDeadlines(options: Pick<ListenOptions, 'headersTimeoutMs' | 'bodyTimeoutMs'>): { headersTimeout: number; requestTimeout: number; connectionsCheckingInterval: number } {
  const headersTimeout = options.headersTimeoutMs ?? HTTP_DEFAULTS.headersTimeoutMs;
  const bodyTimeout = options.bodyTimeoutMs ?? HTTP_DEFAULTS.bodyTimeoutMs;
  return {
    headersTimeout,
    // The handler times the body from when it starts reading; this also covers requests it never
    // reads (another path), and is the backstop if it does not.
    requestTimeout: headersTimeout + bodyTimeout,
    connectionsCheckingInterval: Math.min(5_000, Math.max(25, Math.floor(headersTimeout / 4))),
  };
}

/**
 * Serves the handler on its own `node:http` server, at one path, with the liveness and readiness
 * probes beside it. The probes come before the handler's Host, Origin and authentication checks:
 * an orchestrator probes with the machine's address as the Host and no credentials. With `auth`,
 * the protected-resource metadata's paths go to the handler too, which answers them before its checks.
 */
export function listenHttp(handler: StreamableHttpHandler, options: ListenOptions): Promise<HttpListener> {
  const path = options.path ?? '/mcp';
  const host = options.host ?? '127.0.0.1';
  let draining = false;
  let health: HealthSettings;
  try {
    health = healthSettings(options.health, path, () => draining);
  } catch (error) {
    return Promise.reject(error);
  }
  const server = createServer(requestDeadlines(options), (req, res) => {
    const pathname = (req.url ?? '/').split('?')[0];
    const probe = health.probes.get(pathname);
    if (probe) return void probe(req, res);
    if (pathname !== path && !handler.servesMetadataAt(req.url)) return replyError(res, 404, refusals.badRequest(`no MCP endpoint at ${pathname}; use ${path}`));
    void handler.handle(req, res);
  });
  limitConnections(server, options.maxConnections ?? defaultMaxConnections());
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      const { port } = server.address() as AddressInfo;
      const shownHost = host.includes(':') ? `[${host}]` : host;
      let closing: Promise<void> | undefined;
      resolve({
        url: `http://${shownHost}:${port}${path}`,
        port,
        server,
        close: () => {
          draining = true;
          return (closing ??= shutDown(server, handler, health.drainDelayMs));
        },
      });
    });
  });
}

async function shutDown(server: Server, handler: StreamableHttpHandler, drainDelayMs: number): Promise<void> {
  // Readiness already answers 503: a load balancer that probes it stops sending before we stop serving.
  if (drainDelayMs > 0) await new Promise((done) => setTimeout(done, drainDelayMs));
  // No new connections from now on; Node also closes the idle kept-alive ones at once.
  const closed = new Promise<void>((done) => server.close(() => done()));
  await handler.close();
  // Every call is answered and every stream ended: what is left are requests still arriving.
  server.closeAllConnections();
  await closed;
}
