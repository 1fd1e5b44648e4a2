import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ListenOptions } from './http-options';
import { refusals, replyError } from './http-replies';
import type { StreamableHttpHandler } from './streamable-http.handler';

/** A running HTTP endpoint. */
export interface HttpListener {
  /** The endpoint, e.g. `http://127.0.0.1:3000/mcp`. */
  readonly url: string;
  readonly port: number;
  readonly server: Server;
  close(): Promise<void>;
}

/** Serves the handler on its own `node:http` server, at one path. */
export function listenHttp(handler: StreamableHttpHandler, options: ListenOptions): Promise<HttpListener> {
  const path = options.path ?? '/mcp';
  const host = options.host ?? '127.0.0.1';
  const server = createServer((req, res) => {
    const pathname = (req.url ?? '/').split('?')[0];
    if (pathname !== path) return replyError(res, 404, refusals.badRequest(`no MCP endpoint at ${pathname}; use ${path}`));
    void handler.handle(req, res);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      const { port } = server.address() as AddressInfo;
      const shownHost = host.includes(':') ? `[${host}]` : host;
      resolve({
        url: `http://${shownHost}:${port}${path}`,
        port,
        server,
        close: () => new Promise<void>((done) => {
          server.closeAllConnections();
          server.close(() => done());
        }),
      });
    });
  });
}
