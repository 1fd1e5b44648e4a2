import { subscribe } from 'node:diagnostics_channel';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { serveBench } from './bench-channel';

export type HttpHandler = (req: IncomingMessage, res: ServerResponse) => unknown;

/**
 * Serves one contender's `(req, res)` handler on its own loopback port, the same way for every
 * contender: a plain `node:http` server, as the SDK's and phantom's docs both show for mounting.
 *
 * It also keeps the count of requests in hand, so the bench can wait for the work a round left
 * behind (a slow contender still has queued requests when the load generator stops) before it
 * measures the next contender: that work would otherwise steal the next contender's CPU.
 */
export async function serveHttp(handler: HttpHandler, onStop?: () => Promise<void>): Promise<void> {
  const inHand = new RequestsInHand();
  const server = createServer((req, res) => {
    // A request whose client left when a round ended is not worth answering.
    if (req.socket.destroyed) return void res.destroy();
    inHand.track(res);
    void handler(req, res);
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  serveBench({ url: `http://127.0.0.1:${port}/mcp` }, {
    drain: () => inHand.drained(),
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await onStop?.();
    },
  });
}

/** The whole request body as text (the contenders that parse JSON themselves). */
export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Announces a contender whose framework creates and listens on its own `node:http` server (NestJS,
 * fastmcp), so the bench cannot wrap its handler. The requests in hand are counted from Node's
 * `http.server.request.start` diagnostics channel instead, which every `node:http` server in the
 * process publishes to, so `drain` waits for the same thing as with `serveHttp`.
 */
export function announceHttp(url: string, onStop: () => Promise<void>): void {
  const inHand = new RequestsInHand();
  subscribe('http.server.request.start', (message) => inHand.track((message as { response: ServerResponse }).response));
  serveBench({ url }, { drain: () => inHand.drained(), stop: onStop });
}

/**
 * A free loopback port, for a framework that must be told its port and cannot report the one the
 * system chose (fastmcp): listen on port 0, read the port, close. Another process could take it
 * in between; on a bench machine nothing does.
 */
export async function freePort(): Promise<number> {
  const probe = createNetServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** The requests being handled, and who waits for there to be none. */
class RequestsInHand {
  private count = 0;
  private idle: (() => void)[] = [];

  track(res: ServerResponse): void {
    this.count += 1;
    res.once('close', () => {
      this.count -= 1;
      if (this.count > 0) return;
      for (const resolve of this.idle) resolve();
      this.idle = [];
    });
  }

  drained(): Promise<void> {
    return this.count === 0 ? Promise.resolve() : new Promise<void>((resolve) => this.idle.push(resolve));
  }
}
