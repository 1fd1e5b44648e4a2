import 'reflect-metadata';
import { expect } from 'chai';
import express, { type Request, type Response } from 'express';
import { fastify, type FastifyInstance } from 'fastify';
import { All, Controller, Module, Req, Res, type DynamicModule, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SILENT_DIAGNOSTICS, type PhantomServer } from '../../lib';
import { expressJsonErrors, fastifyJsonErrors, StreamableHttpHandler } from '../../lib/entries/http';
import { everythingServer } from './support/everything.fixture';
import { connectHttp } from './support/sdk-clients';
import { post, type RawReply } from './support/raw-http';

/*
 * A host's own JSON body parser stands in front of the MCP handler: its limit decides how large a
 * call may be, and its failures are answered before the handler runs. Each host below is set up
 * as the README's "Mounting in an existing app" shows.
 */

const MIB = 1024 * 1024;
/** A tool call of 200 KB: past the 100 kB that express.json() and Nest take by default. */
const LARGE_TEXT = 'x'.repeat(200 * 1024);
/** A body past the 4 MiB the README's set-ups allow. */
const TOO_LARGE = { jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(5 * MIB) } };
const MALFORMED = '{"jsonrpc":"2.0","id":1,"method":';

function urlOf(http: Server, path: string): string {
  return `http://127.0.0.1:${(http.address() as AddressInfo).port}${path}`;
}

/** The official client calls `echo` with 200 KB of text and gets it back. */
async function largeCall(url: string): Promise<string> {
  const { client, transport } = await connectHttp(url);
  try {
    const result = await client.callTool({ name: 'echo', arguments: { text: LARGE_TEXT } });
    return (result.content as { text: string }[])[0].text;
  } finally {
    await transport.terminateSession();
    await client.close();
  }
}

function expectParseError(reply: RawReply): void {
  expect(reply.status).to.equal(400);
  expect(reply.headers.get('content-type')).to.match(/^application\/json/);
  expect(reply.json).to.deep.equal({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
}

function expectTooLarge(reply: RawReply, limit: number): void {
  expect(reply.status).to.equal(413);
  expect(reply.headers.get('content-type')).to.match(/^application\/json/);
  expect(reply.json).to.deep.equal({ jsonrpc: '2.0', id: null, error: { code: -32000, message: `Payload Too Large: the body exceeds ${limit} bytes` } });
}

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

async function listenNest(app: INestApplication): Promise<string> {
  await app.listen(0, '127.0.0.1');
  return urlOf(app.getHttpServer() as Server, '/mcp');
}

describe('expressJsonErrors', () => {
  let server: PhantomServer;

  before(() => { server = everythingServer({ diagnostics: SILENT_DIAGNOSTICS }); });
  after(() => server.close());

  context('when mounted on the MCP path after express.json({ limit: "4mb" }) and the handler', () => {
    let url: string;
    let http: Server;

    before(async () => {
      const app = express();
      app.set('env', 'test'); // Express then keeps the errors it answers itself off stderr
      app.use(express.json({ limit: '4mb' }));
      app.all('/mcp', server.httpHandler().handle);
      app.use('/mcp', expressJsonErrors());
      http = await new Promise<Server>((resolve) => { const s = app.listen(0, '127.0.0.1', () => resolve(s)); });
      url = urlOf(http, '/mcp');
    });
    after(() => new Promise<void>((done) => { http.closeAllConnections(); http.close(() => done()); }));

    it('serves a 200 KB tool call', async () => {
      expect(await largeCall(url)).to.equal(LARGE_TEXT);
    });

    it('answers malformed JSON with 400 and a JSON-RPC -32700 body, not an HTML page', async () => {
      expectParseError(await post(url, MALFORMED));
    });

    it('answers a body over the parser\'s limit with 413 and a JSON-RPC error body naming the limit', async () => {
      expectTooLarge(await post(url, TOO_LARGE), 4 * MIB);
    });

    it('passes any other error on to Express (a charset the parser does not take: its own 415)', async () => {
      const reply = await post(url, '{}', { 'content-type': 'application/json; charset=koi8-r' });
      expect(reply.status).to.equal(415);
      expect(reply.headers.get('content-type')).to.match(/^text\/html/);
    });

    it('keeps serving after a malformed body', async () => {
      await post(url, MALFORMED);
      expect(await largeCall(url)).to.equal(LARGE_TEXT);
    });
  });

  context('when given to NestJS 11 with app.use() right after app.useBodyParser("json", { limit: "4mb" })', () => {
    let app: NestExpressApplication;
    let url: string;

    before(async () => {
      app = await NestFactory.create<NestExpressApplication>(McpModule.serving(server.httpHandler()), { logger: false });
      app.useBodyParser('json', { limit: '4mb' });
      app.use('/mcp', expressJsonErrors());
      url = await listenNest(app);
    });
    after(() => app.close());

    it('serves a 200 KB tool call (Nest\'s own parser takes 100 kB)', async () => {
      expect(await largeCall(url)).to.equal(LARGE_TEXT);
    });

    it('answers malformed JSON with 400 and a JSON-RPC -32700 body, not Nest\'s', async () => {
      expectParseError(await post(url, MALFORMED));
    });

    it('answers a body over the parser\'s limit with 413 and a JSON-RPC error body', async () => {
      expectTooLarge(await post(url, TOO_LARGE), 4 * MIB);
    });

    it('passes any other error on to Nest (a charset the parser does not take: Nest\'s own 415)', async () => {
      const reply = await post(url, '{}', { 'content-type': 'application/json; charset=koi8-r' });
      expect(reply.status).to.equal(415);
      expect(reply.json).to.include({ statusCode: 415 });
    });
  });
});

describe('fastifyJsonErrors', () => {
  let server: PhantomServer;

  before(() => { server = everythingServer({ diagnostics: SILENT_DIAGNOSTICS }); });
  after(() => server.close());

  context('when given to the MCP route as its errorHandler, with a bodyLimit of 4 MiB', () => {
    let app: FastifyInstance;
    let url: string;

    before(async () => {
      const handler = server.httpHandler();
      app = fastify();
      app.all('/mcp', { bodyLimit: 4 * MIB, errorHandler: fastifyJsonErrors() }, async (request, reply) => {
        reply.hijack();
        await handler.handle(request.raw, reply.raw, request.body);
      });
      await app.listen({ port: 0, host: '127.0.0.1' });
      url = urlOf(app.server, '/mcp');
    });
    after(() => app.close());

    it('serves a 200 KB tool call', async () => {
      expect(await largeCall(url)).to.equal(LARGE_TEXT);
    });

    it('answers malformed JSON with 400 and a JSON-RPC -32700 body, not Fastify\'s', async () => {
      expectParseError(await post(url, MALFORMED));
    });

    it('answers an empty body with 400 and a JSON-RPC -32700 body, as the handler answers one it reads', async () => {
      expectParseError(await post(url, ''));
    });

    it('answers a body over bodyLimit with 413 and a JSON-RPC error body naming the limit', async () => {
      expectTooLarge(await post(url, TOO_LARGE), 4 * MIB);
    });

    it('throws any other error on to Fastify (a content type no parser takes: its own 415)', async () => {
      const reply = await post(url, '<ping/>', { 'content-type': 'application/xml' });
      expect(reply.status).to.equal(415);
      expect(reply.json).to.include({ code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE' });
    });
  });
});

describe('StreamableHttpHandler', () => {
  let server: PhantomServer;

  before(() => { server = everythingServer({ diagnostics: SILENT_DIAGNOSTICS }); });
  after(() => server.close());

  describe('#handle', () => {
    context('when mounted in Express 5 before express.json()', () => {
      let url: string;
      let http: Server;

      before(async () => {
        const app = express();
        app.all('/mcp', server.httpHandler().handle);
        app.use(express.json());
        http = await new Promise<Server>((resolve) => { const s = app.listen(0, '127.0.0.1', () => resolve(s)); });
        url = urlOf(http, '/mcp');
      });
      after(() => new Promise<void>((done) => { http.closeAllConnections(); http.close(() => done()); }));

      it('reads the body itself: a 200 KB tool call is served past the parser\'s 100 kB', async () => {
        expect(await largeCall(url)).to.equal(LARGE_TEXT);
      });

      it('answers malformed JSON with 400 and a JSON-RPC -32700 body', async () => {
        expectParseError(await post(url, MALFORMED));
      });

      it('answers a body over maxBodyBytes with 413 and a JSON-RPC error body', async () => {
        expectTooLarge(await post(url, TOO_LARGE), 4 * MIB);
      });
    });

    context('when mounted in NestJS 11 made with { bodyParser: false }', () => {
      let app: INestApplication;
      let url: string;

      before(async () => {
        app = await NestFactory.create(McpModule.serving(server.httpHandler()), { logger: false, bodyParser: false });
        url = await listenNest(app);
      });
      after(() => app.close());

      it('reads the body itself: a 200 KB tool call is served', async () => {
        expect(await largeCall(url)).to.equal(LARGE_TEXT);
      });

      it('answers malformed JSON with 400 and a JSON-RPC -32700 body', async () => {
        expectParseError(await post(url, MALFORMED));
      });

      it('answers a body over maxBodyBytes with 413 and a JSON-RPC error body', async () => {
        expectTooLarge(await post(url, TOO_LARGE), 4 * MIB);
      });
    });
  });
});
