import 'reflect-metadata';
import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { fastify } from 'fastify';
import { All, Controller, Module, Req, Res, type DynamicModule, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { Request, Response } from 'express';
import { Hono } from 'hono';
import { serve, type ServerType } from '@hono/node-server';
import { PhantomError, PhantomServer, SILENT_DIAGNOSTICS, Tool, type Diagnostics, type HttpOptions, type PhantomServerOptions } from '../../lib';
import { SERVER_CARD_SCHEMA, StreamableHttpHandler } from '../../lib/entries/http';
import { oauthResourceServer } from '../../lib/entries/oauth';
import { AuthorizationServerFixture } from '../support/authorization-server.fixture';
import { freePort } from './support/oauth-http';
import { INITIALIZE, post, send, type RawReply } from './support/raw-http';
import { cardValidator } from '../transport/http/fixtures/server-card-schema';

const MEDIA_TYPE = 'application/mcp-server-card+json';
const VERSIONS = ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26'];

class Notes {
  @Tool({ description: 'Read the notes' })
  notes_read() {
    return 'notes';
  }
}

const CARDED: PhantomServerOptions = {
  name: 'io.github.alice/notes',
  version: '1.4.0',
  title: 'Notes',
  description: 'Reads and writes the team notes',
  websiteUrl: 'https://notes.example.com',
  icons: [{ src: 'https://notes.example.com/icon.png', mimeType: 'image/png', sizes: ['48x48'] }],
  providers: [Notes],
  diagnostics: SILENT_DIAGNOSTICS,
};

/** A host serving the MCP endpoint and its card; `url` is the endpoint's. */
interface Hosted {
  readonly url: string;
  close(): Promise<void>;
}

function closeHttp(http: Server): Promise<void> {
  return new Promise((done) => { http.closeAllConnections(); http.close(() => done()); });
}

/** Every way a server is served, each routing `/mcp` and `/mcp/server-card` to the one handler. */
const HOSTS: ReadonlyArray<{ readonly name: string; readonly host: (server: PhantomServer, options: HttpOptions) => Promise<Hosted> }> = [
  {
    name: 'listen()',
    host: async (server, options) => {
      const listener = await server.listen({ port: 0, ...options });
      return { url: listener.url, close: () => listener.close() };
    },
  },
  {
    name: 'httpHandler() in node:http',
    host: async (server, options) => {
      const handler = server.httpHandler(options);
      const http = createServer((req, res) => void handler.handle(req, res));
      await new Promise<void>((done) => http.listen(0, '127.0.0.1', done));
      return { url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`, close: () => closeHttp(http) };
    },
  },
  {
    name: 'Express 5',
    host: async (server, options) => {
      const handler = server.httpHandler(options);
      const app = express();
      app.use(express.json());
      app.all('/mcp', handler.handle);
      app.all('/mcp/server-card', handler.handle);
      const http = await new Promise<Server>((done) => { const s = app.listen(0, '127.0.0.1', () => done(s)); });
      return { url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`, close: () => closeHttp(http) };
    },
  },
  {
    name: 'Fastify 5',
    host: async (server, options) => {
      const handler = server.httpHandler(options);
      const app = fastify();
      app.all('/mcp', async (request, reply) => {
        reply.hijack();
        await handler.handle(request.raw, reply.raw, request.body);
      });
      app.all('/mcp/server-card', async (request, reply) => {
        reply.hijack();
        await handler.handle(request.raw, reply.raw);
      });
      await app.listen({ port: 0, host: '127.0.0.1' });
      return { url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/mcp`, close: () => app.close() };
    },
  },
  {
    name: 'NestJS 11',
    host: async (server, options) => {
      @Controller()
      class McpController {
        constructor(private readonly mcp: StreamableHttpHandler) {}

        @All('mcp')
        handle(@Req() req: Request, @Res() res: Response): Promise<void> {
          return this.mcp.handle(req, res);
        }

        @All('mcp/server-card')
        card(@Req() req: Request, @Res() res: Response): Promise<void> {
          return this.mcp.handle(req, res);
        }
      }
      @Module({})
      class McpModule {
        static serving(mcp: StreamableHttpHandler): DynamicModule {
          return { module: McpModule, controllers: [McpController], providers: [{ provide: StreamableHttpHandler, useValue: mcp }] };
        }
      }
      const app: INestApplication = await NestFactory.create(McpModule.serving(server.httpHandler(options)), { logger: false });
      await app.listen(0, '127.0.0.1');
      return { url: `${(await app.getUrl()).replace('[::1]', '127.0.0.1')}/mcp`, close: () => app.close() };
    },
  },
  {
    name: 'Hono (fetchHandler())',
    host: async (server, options) => {
      const mcp = server.fetchHandler(options);
      const app = new Hono();
      app.all('/mcp', (c) => mcp(c.req.raw));
      app.all('/mcp/server-card', (c) => mcp(c.req.raw));
      let http!: ServerType;
      await new Promise<void>((done) => { http = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => done()); });
      return { url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`, close: () => new Promise<void>((done) => { http.close(() => done()); }) };
    },
  },
];

function cardUrl(url: string): string {
  return `${url}/server-card`;
}

describe('the server card', () => {
  const validate = cardValidator();

  for (const { name, host } of HOSTS) {
    context(`when served by ${name}`, () => {
      let server: PhantomServer;
      let hosted: Hosted;

      before(async () => {
        server = new PhantomServer(CARDED);
        hosted = await host(server, {});
      });
      after(async () => {
        await hosted.close();
        await server.close();
      });

      it('answers GET <endpoint>/server-card with the card, valid against the pinned schema, as application/mcp-server-card+json', async () => {
        const reply = await send(cardUrl(hosted.url), 'GET', { accept: MEDIA_TYPE });
        expect(reply.status).to.equal(200);
        expect(reply.headers.get('content-type')).to.equal(MEDIA_TYPE);
        expect(validate(reply.json)).to.deep.equal([]);
        expect(reply.json).to.deep.equal({
          $schema: SERVER_CARD_SCHEMA,
          name: 'io.github.alice/notes',
          version: '1.4.0',
          description: 'Reads and writes the team notes',
          title: 'Notes',
          websiteUrl: 'https://notes.example.com',
          icons: [{ src: 'https://notes.example.com/icon.png', mimeType: 'image/png', sizes: ['48x48'] }],
          remotes: [{ type: 'streamable-http', url: hosted.url, supportedProtocolVersions: VERSIONS }],
        });
      });

      it('answers a plain GET (any Accept, or none) with the same card', async () => {
        const plain = await send(cardUrl(hosted.url), 'GET');
        const json = await send(cardUrl(hosted.url), 'GET', { accept: 'application/json' });
        expect([plain.status, json.status]).to.deep.equal([200, 200]);
        expect(json.text).to.equal(plain.text);
      });

      it('sends the CORS headers of the extension, Cache-Control and a strong ETag over the body', async () => {
        const reply = await send(cardUrl(hosted.url), 'GET', { origin: 'https://some.page.example' });
        expect(reply.status).to.equal(200);
        expect(reply.headers.get('access-control-allow-origin')).to.equal('*');
        expect(reply.headers.get('access-control-allow-methods')).to.equal('GET');
        expect(reply.headers.get('access-control-allow-headers')).to.equal('Content-Type, If-None-Match');
        expect(reply.headers.get('access-control-expose-headers')).to.equal('ETag');
        expect(reply.headers.get('cache-control')).to.equal('public, max-age=3600');
        expect(reply.headers.get('etag')).to.equal(`"${createHash('sha256').update(reply.text).digest('base64url')}"`);
      });

      it('answers If-None-Match with the ETag (alone, weak or in a list) with 304 and no body', async () => {
        const first = await send(cardUrl(hosted.url), 'GET');
        const etag = first.headers.get('etag')!;
        for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
          const again = await send(cardUrl(hosted.url), 'GET', { 'if-none-match': ifNoneMatch });
          expect(again.status, ifNoneMatch).to.equal(304);
          expect(again.text).to.equal('');
          expect(again.headers.get('etag')).to.equal(etag);
          expect(again.headers.get('access-control-allow-origin')).to.equal('*');
        }
        const stale = await send(cardUrl(hosted.url), 'GET', { 'if-none-match': '"an-old-card"' });
        expect(stale.status).to.equal(200);
        expect(stale.text).to.equal(first.text);
      });

      it('answers HEAD with the headers and no body', async () => {
        const get = await send(cardUrl(hosted.url), 'GET');
        const head = await send(cardUrl(hosted.url), 'HEAD');
        expect(head.status).to.equal(200);
        expect(head.text).to.equal('');
        expect(head.headers.get('etag')).to.equal(get.headers.get('etag'));
        expect(head.headers.get('content-type')).to.equal(MEDIA_TYPE);
      });

      it('answers the CORS preflight with 204 and the CORS headers', async () => {
        const reply = await send(cardUrl(hosted.url), 'OPTIONS', { origin: 'https://some.page.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'if-none-match' });
        expect(reply.status).to.equal(204);
        expect(reply.text).to.equal('');
        expect(reply.headers.get('access-control-allow-origin')).to.equal('*');
        expect(reply.headers.get('access-control-allow-methods')).to.equal('GET');
        expect(reply.headers.get('access-control-allow-headers')).to.equal('Content-Type, If-None-Match');
      });

      it('answers other methods 405 with Allow', async () => {
        for (const method of ['POST', 'DELETE', 'PUT']) {
          // No body on DELETE: Fastify's parser would answer an empty JSON body 400 before the handler sees it.
          const reply = method === 'DELETE' ? await send(cardUrl(hosted.url), method) : await send(cardUrl(hosted.url), method, { 'content-type': 'application/json' }, '{}');
          expect(reply.status, method).to.equal(405);
          expect(reply.headers.get('allow')).to.equal('GET, HEAD, OPTIONS');
        }
      });

      it('leaves the MCP endpoint as it was', async () => {
        const reply = await post(hosted.url, INITIALIZE);
        expect(reply.status).to.equal(200);
        expect(reply.headers.get('mcp-session-id')).to.be.a('string');
      });
    });
  }

  context('when the endpoint is an OAuth resource server', () => {
    let as: AuthorizationServerFixture;
    let server: PhantomServer;
    let url: string;
    let close: () => Promise<void>;

    before(async () => {
      as = await AuthorizationServerFixture.start();
      server = new PhantomServer(CARDED);
      const port = await freePort();
      const auth = oauthResourceServer({ issuer: as.issuer, audience: `http://127.0.0.1:${port}/mcp`, diagnostics: SILENT_DIAGNOSTICS });
      const listener = await server.listen({ port, auth });
      url = listener.url;
      close = () => listener.close();
    });
    after(async () => {
      await close();
      await server.close();
      await as.close();
    });

    it('serves the card without a token, naming the Authorization header as required and secret, with no value', async () => {
      expect((await post(url, INITIALIZE)).status).to.equal(401);
      const reply = await send(cardUrl(url), 'GET');
      expect(reply.status).to.equal(200);
      expect(validate(reply.json)).to.deep.equal([]);
      expect(reply.json.remotes).to.have.length(1);
      const [authorization] = reply.json.remotes[0].headers;
      expect(authorization).to.include({ name: 'Authorization', isRequired: true, isSecret: true });
      expect(authorization).to.not.have.property('value');
    });

    it('gives every caller the same card: one with a token that is refused sees what an anonymous one sees', async () => {
      const anonymous = await send(cardUrl(url), 'GET');
      const refused = await send(cardUrl(url), 'GET', { authorization: 'Bearer not-a-token' });
      expect(refused.status).to.equal(200);
      expect(refused.text).to.equal(anonymous.text);
    });
  });

  context('when the server has no registry name or no description', () => {
    const cases: ReadonlyArray<{ readonly when: string; readonly options: Partial<PhantomServerOptions>; readonly names: RegExp }> = [
      { when: 'its name is not namespace/name', options: { name: 'notes' }, names: /no registry name: the server's name "notes"/ },
      { when: 'it has no description', options: { description: undefined }, names: /no description/ },
      { when: 'its description is longer than 100 characters', options: { description: 'x'.repeat(101) }, names: /101 characters/ },
      { when: 'its version is a range', options: { version: '^1.4.0' }, names: /not one version/ },
    ];
    for (const { when, options, names } of cases) {
      it(`answers 404 on every host and warns once at start-up, when ${when}`, async () => {
        for (const { name, host } of HOSTS) {
          const warnings: string[] = [];
          const diagnostics: Diagnostics = { ...SILENT_DIAGNOSTICS, warn: (message) => warnings.push(message) };
          const server = new PhantomServer({ ...CARDED, ...options, diagnostics });
          const hosted = await host(server, {});
          try {
            const reply = await send(cardUrl(hosted.url), 'GET');
            expect(reply.status, name).to.equal(404);
            await send(cardUrl(hosted.url), 'GET');
            expect(warnings, name).to.have.length(1);
            expect(warnings[0], name).to.match(/^no server card at \/mcp\/server-card \(404\): /).and.match(names);
          } finally {
            await hosted.close();
            await server.close();
          }
        }
      });
    }

    it('says nothing above debug for a server that shows no wish for a card (a plain name, no description)', async () => {
      const reports: string[] = [];
      const diagnostics: Diagnostics = { error: (message) => reports.push(message), warn: (message) => reports.push(message), debug: (message) => reports.push(`debug: ${message}`) };
      const server = new PhantomServer({ name: 'notes', version: '1.0.0', providers: [Notes], diagnostics });
      const listener = await server.listen({ port: 0 });
      try {
        expect((await send(cardUrl(listener.url), 'GET')).status).to.equal(404);
        expect(reports).to.have.length(1);
        expect(reports[0]).to.match(/^debug: no server card/);
      } finally {
        await server.close();
      }
    });
  });

  context('with the serverCard option', () => {
    async function cardOf(serverOptions: Partial<PhantomServerOptions>, options: HttpOptions): Promise<RawReply> {
      const server = new PhantomServer({ ...CARDED, ...serverOptions });
      const listener = await server.listen({ port: 0, ...options });
      try {
        return await send(cardUrl(listener.url), 'GET');
      } finally {
        await server.close();
      }
    }

    it('takes the registry name from serverCard.name when the server name is not one', async () => {
      const reply = await cardOf({ name: 'notes' }, { serverCard: { name: 'com.example/notes' } });
      expect(reply.status).to.equal(200);
      expect(reply.json.name).to.equal('com.example/notes');
      expect(validate(reply.json)).to.deep.equal([]);
    });

    it('names serverCard.url in remotes instead of the request Host, and keeps the same ETag whatever the Host', async () => {
      const server = new PhantomServer(CARDED);
      const listener = await server.listen({ port: 0, serverCard: { url: 'https://mcp.example.com/mcp' }, allowedHosts: ['127.0.0.1', 'localhost'] });
      try {
        const byAddress = await send(cardUrl(listener.url), 'GET');
        const byName = await fetchWithHost(cardUrl(listener.url), `localhost:${listener.port}`);
        expect(byAddress.json.remotes[0].url).to.equal('https://mcp.example.com/mcp');
        expect(byName.text).to.equal(byAddress.text);
        expect(byName.headers.get('etag')).to.equal(byAddress.headers.get('etag'));
        expect(validate(byAddress.json)).to.deep.equal([]);
      } finally {
        await server.close();
      }
    });

    it('lists declared headers (an API key behind an authenticate hook)', async () => {
      const reply = await cardOf({}, { serverCard: { headers: [{ name: 'X-API-Key', description: 'Your key', isRequired: true, isSecret: true }] } });
      expect(reply.json.remotes[0].headers).to.deep.equal([{ name: 'X-API-Key', description: 'Your key', isRequired: true, isSecret: true }]);
      expect(validate(reply.json)).to.deep.equal([]);
    });

    it('sets Cache-Control from maxAgeSec', async () => {
      expect((await cardOf({}, { serverCard: { maxAgeSec: 60 } })).headers.get('cache-control')).to.equal('public, max-age=60');
    });

    it('serves none with serverCard: false', async () => {
      expect((await cardOf({}, { serverCard: false })).status).to.equal(404);
    });

    it('refuses a malformed option at start-up, naming every problem', () => {
      const server = new PhantomServer(CARDED);
      expect(() => server.httpHandler({ serverCard: { name: 'notes', url: 'ftp://x', maxAgeSec: -1 } })).to.throw(PhantomError, /serverCard.name "notes".*serverCard.url "ftp:\/\/x".*serverCard.maxAgeSec/)
        .with.property('code', 'server_card_option');
    });
  });

  context('with the Host and Origin of the request', () => {
    let server: PhantomServer;
    let url: string;

    before(async () => {
      server = new PhantomServer(CARDED);
      url = (await server.listen({ port: 0, allowedHosts: ['127.0.0.1', 'localhost'] })).url;
    });
    after(() => server.close());

    it('builds the remote URL from a Host the Host check allows, and gives each its own ETag', async () => {
      const port = new URL(url).port;
      const byAddress = await send(cardUrl(url), 'GET');
      const byName = await fetchWithHost(cardUrl(url), `localhost:${port}`);
      expect(byAddress.json.remotes[0].url).to.equal(url);
      expect(byName.json.remotes[0].url).to.equal(`http://localhost:${port}/mcp`);
      expect(byName.headers.get('etag')).to.not.equal(byAddress.headers.get('etag'));
    });

    it('refuses a Host the Host check does not allow (403): the card never names a host an attacker chose', async () => {
      const reply = await fetchWithHost(cardUrl(url), 'evil.example');
      expect(reply.status).to.equal(403);
      expect(reply.text).to.not.include('evil.example/mcp');
    });

    it('answers a page of any origin (the card is public): no Origin check', async () => {
      const reply = await send(cardUrl(url), 'GET', { origin: 'https://elsewhere.example' });
      expect(reply.status).to.equal(200);
      expect(reply.headers.get('access-control-allow-origin')).to.equal('*');
    });
  });

  describe('PhantomServer#serverCard', () => {
    it('builds the card for a given URL, as the endpoint serves it', () => {
      const card = new PhantomServer(CARDED).serverCard({ url: 'https://mcp.example.com/mcp', bearer: true });
      expect(validate(card)).to.deep.equal([]);
      expect(card.remotes[0]).to.deep.include({ url: 'https://mcp.example.com/mcp', supportedProtocolVersions: VERSIONS });
      expect(card.remotes[0].headers?.map((header) => header.name)).to.deep.equal(['Authorization']);
      expect(card).to.not.have.any.keys('tools', 'prompts', 'resources');
    });

    it('throws saying what is missing', () => {
      expect(() => new PhantomServer({ ...CARDED, name: 'notes', description: undefined }).serverCard({ url: 'https://mcp.example.com/mcp' }))
        .to.throw(PhantomError, /no registry name.*no description/).with.property('code', 'server_card_unavailable');
    });
  });
});

/** A GET with a Host header of our choosing (fetch will not send one): through node:http. */
async function fetchWithHost(url: string, host: string): Promise<RawReply> {
  const { request } = await import('node:http');
  return new Promise((done, fail) => {
    const req = request(url, { headers: { host } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => { text += chunk; });
      res.on('end', () => {
        let json: unknown;
        try { json = JSON.parse(text); } catch { json = undefined; }
        const headers = new Headers();
        for (const [name, value] of Object.entries(res.headers)) if (typeof value === 'string') headers.set(name, value);
        done({ status: res.statusCode ?? 0, headers, text, json });
      });
    });
    req.on('error', fail);
    req.end();
  });
}
