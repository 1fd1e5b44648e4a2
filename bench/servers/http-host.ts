import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
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
  let inHand = 0;
  let idle: (() => void)[] = [];
  const server = createServer((req, res) => {
    // A request whose client left when a round ended is not worth answering.
    if (req.socket.destroyed) return void res.destroy();
    inHand += 1;
    res.once('close', () => {
      inHand -= 1;
      if (inHand === 0) {
        for (const resolve of idle) resolve();
        idle = [];
      }
    });
    void handler(req, res);
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  serveBench({ url: `http://127.0.0.1:${port}/mcp` }, {
    drain: () => (inHand === 0 ? Promise.resolve() : new Promise<void>((resolve) => idle.push(resolve))),
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
