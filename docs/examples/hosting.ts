// The web-standard fetch handler, and the hosts that serve one: Hono (run here on Node),
// Bun, Deno, Cloudflare Workers and Next.js route handlers. Included in docs/guide/hosting.md;
// run by spec/docs/examples/hosting.spec.ts (Hono over a real port with the official client; the
// other hosts' entry points called with a web `Request`, their runtimes stood in for).
import 'reflect-metadata';
import type { FetchHandler } from 'phantom-mcp/http';

// #region fetch-handler
import { createServer } from './hello'; // your server: a PhantomServer

export const server = createServer();
export const mcp = server.fetchHandler({ allowedHosts: ['mcp.example.com'] }); // (Request) => Promise<Response>
// #endregion fetch-handler

// #region hono
import { Hono } from 'hono';
import { serve, type ServerType } from '@hono/node-server';

export function honoApp(mcp: FetchHandler): Hono {
  const app = new Hono();
  app.get('/', (c) => c.text('the rest of the app'));
  app.all('/mcp', (c) => mcp(c.req.raw)); // Hono reads no body: the handler does, within maxBodyBytes
  return app;
}

export function serveWithHono(mcp: FetchHandler, port = 3000): ServerType {
  return serve({ fetch: honoApp(mcp).fetch, port }); // the same app runs on Bun, Deno and Workers
}
// #endregion hono

/** The little of Bun's and Deno's APIs used below; on those runtimes their own types declare them. */
interface BunServer { timeout(request: Request, seconds: number): void }
declare const Bun: { serve(options: { port: number; fetch(request: Request, server: BunServer): Response | Promise<Response> }): unknown };
declare const Deno: { serve(options: { port: number }, handler: (request: Request) => Response | Promise<Response>): unknown };

// #region bun
export function serveOnBun(): void {
  Bun.serve({
    port: 3000,
    fetch(request, bun) {
      if (new URL(request.url).pathname !== '/mcp') return new Response('Not Found', { status: 404 });
      bun.timeout(request, 0); // Bun closes a connection idle for 10 s; an SSE stream may be quiet longer
      return mcp(request);
    },
  });
}
// #endregion bun

// #region deno
export function serveOnDeno(): void {
  Deno.serve({ port: 3000 }, (request) =>
    new URL(request.url).pathname === '/mcp' ? mcp(request) : new Response('Not Found', { status: 404 }));
}
// #endregion deno

// #region workers
export default { fetch: (request: Request) => mcp(request) }; // a Worker's module
// #endregion workers

// #region nextjs
export const dynamic = 'force-dynamic'; // app/mcp/route.ts, Node runtime
export { mcp as GET, mcp as POST, mcp as DELETE, mcp as OPTIONS };
// #endregion nextjs
