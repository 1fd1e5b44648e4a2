// Serving a server over stdio and Streamable HTTP, mounting it in node:http, Express, Fastify and
// NestJS, and opening it to a network safely. Included in docs/guide/http.md and
// docs/guide/hosting.md; run by spec/docs/examples/http.spec.ts with the official SDK client.
import 'reflect-metadata';
import type { Server } from 'node:http';
import { All, Controller, Module, Req, Res, type DynamicModule } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Request, Response } from 'express';
import { PhantomServer, StdioTransport, type StdioOptions } from 'phantom-mcp';
import type { HttpListener } from 'phantom-mcp/http';

// #region stdio
export async function serveOnStdio(server: PhantomServer, io: StdioOptions = {}): Promise<void> {
  await server.connect(new StdioTransport(io)); // process.stdin and process.stdout unless told
}
// #endregion stdio

// #region listen
export async function serveOnHttp(server: PhantomServer, port = 3000): Promise<HttpListener> {
  const listener = await server.listen({ port }); // binds 127.0.0.1
  console.error(`MCP endpoint at ${listener.url}`); // http://127.0.0.1:3000/mcp
  return listener;
}
// #endregion listen

// #region node-http
import { createServer } from 'node:http';
import { requestDeadlines } from 'phantom-mcp/http';

export function nodeApp(server: PhantomServer): Server {
  const handler = server.httpHandler({ allowedHosts: ['mcp.example.com', 'localhost', '127.0.0.1'] });
  return createServer(requestDeadlines({}), (req, res) => {
    if (req.url?.split('?')[0] === '/mcp') void handler.handle(req, res);
    else res.writeHead(404).end();
  });
}
// nodeApp(server).listen(3000);
// #endregion node-http

// #region express
import express, { type Express } from 'express';
import { expressJsonErrors } from 'phantom-mcp/http';

export function expressApp(server: PhantomServer): Express {
  const handler = server.httpHandler();
  const app = express();
  app.use(express.json({ limit: '4mb' })); // express.json() takes 100 kB unless told
  app.all('/mcp', handler.handle); // the handler takes req.body as the parser left it
  app.use('/mcp', expressJsonErrors()); // the parser's failures as JSON-RPC: 400 -32700, 413
  return app;
}
// expressApp(server).listen(3000);
// #endregion express

// #region fastify
import { fastify, type FastifyInstance } from 'fastify';
import { fastifyJsonErrors } from 'phantom-mcp/http';

export function fastifyApp(server: PhantomServer): FastifyInstance {
  const handler = server.httpHandler();
  const app = fastify();
  app.all('/mcp', { bodyLimit: 4 * 1024 * 1024, errorHandler: fastifyJsonErrors() }, async (request, reply) => {
    reply.hijack(); // the handler writes the response, SSE included
    await handler.handle(request.raw, reply.raw, request.body);
  });
  return app;
}
// await fastifyApp(server).listen({ port: 3000 });
// #endregion fastify

// #region nestjs
import { StreamableHttpHandler } from 'phantom-mcp/http';

@Controller()
export class McpController {
  constructor(private readonly mcp: StreamableHttpHandler) {}

  @All('mcp')
  handle(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.mcp.handle(req, res);
  }
}

@Module({ controllers: [McpController] })
export class McpModule {
  static serving(server: PhantomServer): DynamicModule {
    return { module: McpModule, providers: [{ provide: StreamableHttpHandler, useValue: server.httpHandler() }] };
  }
}

export async function nestApp(server: PhantomServer): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(McpModule.serving(server), { logger: ['error'] });
  app.useBodyParser('json', { limit: '4mb' }); // Nest then adds no JSON parser of its own
  app.use('/mcp', expressJsonErrors()); // before init(), so it comes after the parser
  return app;
}
// await (await nestApp(server)).listen(3000);
// #endregion nestjs

// #region security
export function serveOnNetwork(server: PhantomServer, apiKeys: ReadonlyMap<string, string>, port = 3000): Promise<HttpListener> {
  return server.listen({
    port,
    host: '0.0.0.0', // every interface, not only this machine
    allowedHosts: ['mcp.example.com'], // the Host clients send (DNS-rebinding protection)
    allowedOrigins: ['https://app.example.com'], // browser pages that may call, with CORS
    authenticate: ({ headers }) => {
      const user = apiKeys.get(String(headers['x-api-key']));
      return user ? { allow: true, principal: { user } } : { allow: false, status: 401, wwwAuthenticate: 'ApiKey realm="mcp"' };
    },
    corsAllowHeaders: ['x-api-key'], // a header of your own that browsers may send
  });
}
// #endregion security

// #region health
export function serveWithProbes(server: PhantomServer, database: { readonly connected: boolean }, port = 3000): Promise<HttpListener> {
  return server.listen({
    port,
    host: '0.0.0.0',
    allowedHosts: ['mcp.example.com'],
    health: { ready: () => database.connected }, // GET /healthz, GET /readyz
  });
}
// #endregion health
