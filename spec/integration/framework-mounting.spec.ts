import 'reflect-metadata';
import { expect } from 'chai';
import express, { type Express, type Request, type Response } from 'express';
import { fastify, type FastifyInstance } from 'fastify';
import { All, Controller, Module, Req, Res, type DynamicModule, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SILENT_DIAGNOSTICS, type HttpOptions, type PhantomServer } from '../../lib';
import { StreamableHttpHandler } from '../../lib/entries/http';
import { everythingServer } from './support/everything.fixture';
import { connectHttp } from './support/sdk-clients';
import { INITIALIZE, openSession, post } from './support/raw-http';

/** What one official client sees of a whole session: tools, a call, progress and an elicitation (both over SSE). */
async function sessionRoundTrip(url: string) {
  const { client, transport } = await connectHttp(url, { elicitation: { form: {} } });
  client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { name: 'Grace', email: 'grace@example.com', role: 'dev' } }));
  const tools = (await client.listTools()).tools.map((tool) => tool.name);
  const echo = (await client.callTool({ name: 'echo', arguments: { text: 'mounted' } })).content;
  const progress: number[] = [];
  await client.callTool({ name: 'steps' }, undefined, { onprogress: ({ progress: step }) => { progress.push(step); } });
  const greet = (await client.callTool({ name: 'greet' })).content;
  await transport.terminateSession();
  await client.close();
  return { tools, echo, progress, greet };
}

const EXPECTED_ROUND_TRIP = {
  echo: [{ type: 'text', text: 'mounted' }],
  progress: [1, 2, 3],
  greet: [{ type: 'text', text: 'Hello Grace (dev)' }],
};

function urlOf(http: Server, path: string): string {
  return `http://127.0.0.1:${(http.address() as AddressInfo).port}${path}`;
}

async function serveExpress(app: Express): Promise<{ url: string; close: () => Promise<void> }> {
  const http = await new Promise<Server>((resolve) => { const s = app.listen(0, '127.0.0.1', () => resolve(s)); });
  return { url: urlOf(http, '/mcp'), close: () => new Promise((done) => { http.closeAllConnections(); http.close(() => done()); }) };
}

describe('StreamableHttpHandler', () => {
  let server: PhantomServer;

  before(() => { server = everythingServer({ diagnostics: SILENT_DIAGNOSTICS }); });
  after(() => server.close());

  function handler(options: HttpOptions = {}): StreamableHttpHandler {
    return server.httpHandler(options);
  }

  describe('#handle', () => {
    context('when mounted in Express 5 after express.json()', () => {
      let app: { url: string; close: () => Promise<void> };

      before(async () => {
        const mcp = handler({ maxBodyBytes: 256 * 1024 });
        const host = express();
        host.use(express.json({ limit: '1mb' }));
        host.all('/mcp', mcp.handle);
        app = await serveExpress(host);
      });
      after(() => app.close());

      it('serves the official client: tools, a call, progress and an elicitation over SSE', async () => {
        const seen = await sessionRoundTrip(app.url);
        expect(seen.tools).to.include.members(['echo', 'steps', 'greet']);
        expect(seen).to.deep.include(EXPECTED_ROUND_TRIP);
      });

      it('checks a parsed body like a raw one: an invalid message is 400 -32600 with its id', async () => {
        const reply = await post(app.url, { jsonrpc: '1.0', id: 7, method: 'ping' });
        expect(reply.status).to.equal(400);
        expect(reply.json).to.deep.include({ id: 7 });
        expect(reply.json.error.code).to.equal(-32600);
      });

      it('checks a parsed body like a raw one: over maxBodyBytes is 413', async () => {
        const reply = await post(app.url, { ...INITIALIZE, params: { ...INITIALIZE.params, padding: 'x'.repeat(300 * 1024) } });
        expect(reply.status).to.equal(413);
      });

      it('answers a parsed body nested too deeply to check again with 400, not 500', async () => {
        const reply = await post(app.url, `${'['.repeat(100_000)}${']'.repeat(100_000)}`);
        expect(reply.status).to.equal(400);
        expect(reply.json.error.code).to.equal(-32600);
      });

      it('answers a parsed body nested too deeply to check again with 400, -32600 and the request\'s own id', async () => {
        const reply = await post(app.url, `{"jsonrpc":"2.0","id":"deep","method":"ping","params":{"a":${'['.repeat(20_000)}${']'.repeat(20_000)}}}`);
        expect(reply.status).to.equal(400);
        expect(reply.json.id).to.equal('deep');
        expect(reply.json.error.code).to.equal(-32600);
      });

      it('takes a batch of a 2025-03-26 session from the parsed body, as from raw bytes', async () => {
        const session = await openSession(app.url, {}, '2025-03-26');
        const reply = await post(app.url, [{ jsonrpc: '2.0', id: 1, method: 'ping' }, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'b' } } }], { 'mcp-session-id': session });
        expect(reply.status).to.equal(200);
        expect(reply.json).to.deep.equal([{ jsonrpc: '2.0', id: 1, result: {} }, { jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'b' }] } }]);
      });

      it('answers an empty body (which express.json() turns into {}) with 400', async () => {
        const reply = await post(app.url, '');
        expect(reply.status).to.equal(400);
        expect(reply.json.error.code).to.equal(-32600);
      });
    });

    context('when mounted in Express 5 after a text or raw parser', () => {
      let text: { url: string; close: () => Promise<void> };
      let raw: { url: string; close: () => Promise<void> };

      before(async () => {
        const mcp = handler();
        text = await serveExpress(express().use(express.text({ type: 'application/json' })).all('/mcp', mcp.handle));
        raw = await serveExpress(express().use(express.raw({ type: 'application/json' })).all('/mcp', mcp.handle));
      });
      after(async () => { await text.close(); await raw.close(); });

      it('reads the string a text parser left on req.body', async () => {
        expect((await post(text.url, INITIALIZE)).status).to.equal(200);
      });

      it('reads the Buffer a raw parser left on req.body', async () => {
        expect((await post(raw.url, INITIALIZE)).status).to.equal(200);
      });
    });

    context('when a middleware left a placeholder req.body but did not read the stream', () => {
      let app: { url: string; close: () => Promise<void> };

      before(async () => {
        const mcp = handler();
        const host = express();
        // What Express 4's body-parser does for a content type it does not parse.
        host.use((req: Request, _res: Response, next: () => void) => { req.body = {}; next(); });
        host.all('/mcp', mcp.handle);
        app = await serveExpress(host);
      });
      after(() => app.close());

      it('reads the body from the stream itself', async () => {
        const reply = await post(app.url, INITIALIZE);
        expect(reply.status).to.equal(200);
        expect(reply.json.result.serverInfo.name).to.equal('everything');
      });
    });

    context('when a middleware consumed the body and left nothing', () => {
      let app: { url: string; close: () => Promise<void> };

      before(async () => {
        const mcp = handler();
        const host = express();
        host.use((req: Request, _res: Response, next: () => void) => { req.resume(); req.on('end', next); });
        host.all('/mcp', mcp.handle);
        app = await serveExpress(host);
      });
      after(() => app.close());

      it('answers 500 at once, saying a body parser consumed the body and how to fix it', async () => {
        const reply = await post(app.url, INITIALIZE);
        expect(reply.status).to.equal(500);
        expect(reply.json.error.code).to.equal(-32000);
        expect(reply.json.error.message).to.match(/body parser/).and.match(/handle\(req, res, body\)/);
      });
    });

    context('when mounted in Fastify 5 with reply.hijack() and the parsed body as third argument', () => {
      let app: FastifyInstance;
      let url: string;

      before(async () => {
        const mcp = handler({ maxBodyBytes: 2048 });
        app = fastify();
        app.all('/mcp', async (request, reply) => {
          reply.hijack();
          await mcp.handle(request.raw, reply.raw, request.body);
        });
        await app.listen({ port: 0, host: '127.0.0.1' });
        url = urlOf(app.server, '/mcp');
      });
      after(() => app.close());

      it('serves the official client: tools, a call, progress and an elicitation over SSE', async () => {
        const seen = await sessionRoundTrip(url);
        expect(seen.tools).to.include.members(['echo', 'steps', 'greet']);
        expect(seen).to.deep.include(EXPECTED_ROUND_TRIP);
      });

      it('checks the body it was given like a raw one: over maxBodyBytes is 413', async () => {
        const reply = await post(url, { ...INITIALIZE, params: { ...INITIALIZE.params, padding: 'x'.repeat(4096) } });
        expect(reply.status).to.equal(413);
      });

      for (const body of ['null', '5', 'true']) {
        it(`answers a body that Fastify parsed to ${body} with 400 and -32600, as a raw one, not 500`, async () => {
          const reply = await post(url, body);
          expect(reply.status).to.equal(400);
          expect(reply.json).to.deep.equal({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: a message must be a JSON object' } });
        });
      }
    });

    context('when mounted in Fastify 5 without the parsed body', () => {
      let app: FastifyInstance;
      let url: string;

      before(async () => {
        const mcp = handler();
        app = fastify();
        app.all('/mcp', async (request, reply) => {
          reply.hijack();
          await mcp.handle(request.raw, reply.raw);
        });
        await app.listen({ port: 0, host: '127.0.0.1' });
        url = urlOf(app.server, '/mcp');
      });
      after(() => app.close());

      it('answers 500 at once instead of waiting for bytes Fastify already read', async () => {
        const reply = await post(url, INITIALIZE);
        expect(reply.status).to.equal(500);
        expect(reply.json.error.message).to.match(/body parser/);
      });
    });

    context('when mounted in NestJS 11 (default body parser) by a controller forwarding @Req() and @Res()', () => {
      let app: INestApplication;
      let url: string;

      @Controller()
      class McpController {
        constructor(private readonly mcp: StreamableHttpHandler) {}

        @All('mcp')
        handle(@Req() req: Request, @Res() res: Response): Promise<void> {
          return this.mcp.handle(req, res);
        }
      }

      @Module({})
      class McpModule {
        static serving(mcp: StreamableHttpHandler): DynamicModule {
          return { module: McpModule, controllers: [McpController], providers: [{ provide: StreamableHttpHandler, useValue: mcp }] };
        }
      }

      before(async () => {
        app = await NestFactory.create(McpModule.serving(handler()), { logger: false });
        await app.listen(0, '127.0.0.1');
        url = urlOf(app.getHttpServer() as Server, '/mcp');
      });
      after(() => app.close());

      it('serves the official client: tools, a call, progress and an elicitation over SSE', async () => {
        const seen = await sessionRoundTrip(url);
        expect(seen.tools).to.include.members(['echo', 'steps', 'greet']);
        expect(seen).to.deep.include(EXPECTED_ROUND_TRIP);
      });
    });
  });
});
