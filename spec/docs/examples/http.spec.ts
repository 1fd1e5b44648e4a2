import 'reflect-metadata';
import { expect } from 'chai';
import { PassThrough } from 'node:stream';
import type { Server } from 'node:http';
import type { PhantomServer } from '../../../lib';
import { createServer as helloServer } from '../../../docs/examples/hello';
import { expressApp, fastifyApp, nestApp, nodeApp, serveOnHttp, serveOnNetwork, serveOnStdio, serveWithProbes } from '../../../docs/examples/http';
import { closed, greetOver, GREETED, INITIALIZE, listening, POST_HEADERS, raw } from './docs-http';

const TOO_LARGE = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping', params: { padding: 'x'.repeat(5 * 1024 * 1024) } });

describe('docs/examples/http.ts (the HTTP guide)', () => {
  let server: PhantomServer;

  beforeEach(() => { server = helloServer(); });
  afterEach(() => server.close());

  describe('serveOnStdio', () => {
    it('answers one JSON-RPC message per line on the streams it is given', async () => {
      const input = new PassThrough();
      const output = new PassThrough();
      await serveOnStdio(server, { input, output });
      const line = new Promise<string>((resolve) => output.once('data', (chunk: Buffer) => resolve(chunk.toString('utf8'))));
      input.write(`${INITIALIZE}\n`);
      const answer = JSON.parse(await line);
      expect(answer).to.deep.include({ jsonrpc: '2.0', id: 1 });
      expect(answer.result.serverInfo).to.deep.include({ name: 'hello' });
      input.end();
    });
  });

  describe('serveOnHttp', () => {
    it('serves the official client at http://127.0.0.1:<port>/mcp', async () => {
      const shown = console.error;
      const printed: unknown[] = [];
      console.error = (...line: unknown[]) => { printed.push(line.join(' ')); };
      try {
        const listener = await serveOnHttp(server, 0);
        expect(listener.url).to.equal(`http://127.0.0.1:${listener.port}/mcp`);
        expect(printed).to.deep.equal([`MCP endpoint at ${listener.url}`]);
        expect(await greetOver(listener.url)).to.deep.equal(GREETED);
      } finally {
        console.error = shown;
      }
    });
  });

  describe('nodeApp', () => {
    let http: Server;
    let port: number;

    beforeEach(async () => { http = nodeApp(server); port = await listening(http); });
    afterEach(() => closed(http));

    it('serves the official client at /mcp', async () => {
      expect(await greetOver(`http://127.0.0.1:${port}/mcp`)).to.deep.equal(GREETED);
    });

    it('leaves other paths to the app (404 here)', async () => {
      expect((await raw(port, { method: 'GET', path: '/other' })).status).to.equal(404);
    });

    it('answers a Host outside allowedHosts with 403', async () => {
      const reply = await raw(port, { headers: { ...POST_HEADERS, host: 'evil.example' }, body: INITIALIZE });
      expect(reply.status).to.equal(403);
      expect(reply.json.error.message).to.contain('Host not allowed');
    });
  });

  describe('expressApp', () => {
    let http: Server;
    let port: number;

    beforeEach(async () => { http = expressApp(server).listen(0, '127.0.0.1'); await new Promise((ready) => http.once('listening', ready)); port = (http.address() as { port: number }).port; });
    afterEach(() => closed(http));

    it('serves the official client, the body parsed by express.json()', async () => {
      expect(await greetOver(`http://127.0.0.1:${port}/mcp`)).to.deep.equal(GREETED);
    });

    it('answers malformed JSON as the handler would: 400 and -32700', async () => {
      const reply = await raw(port, { headers: { ...POST_HEADERS }, body: '{"jsonrpc":' });
      expect(reply.status).to.equal(400);
      expect(reply.json).to.deep.equal({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
    });

    it('answers a body over the parser\'s 4 MB with 413 and a JSON-RPC error', async () => {
      const reply = await raw(port, { headers: { ...POST_HEADERS }, body: TOO_LARGE });
      expect(reply.status).to.equal(413);
      expect(reply.json.error.code).to.equal(-32000);
      expect(reply.json.error.message).to.contain('Payload Too Large');
    });
  });

  describe('fastifyApp', () => {
    let app: ReturnType<typeof fastifyApp>;
    let port: number;

    beforeEach(async () => {
      app = fastifyApp(server);
      await app.listen({ port: 0, host: '127.0.0.1' });
      port = (app.server.address() as { port: number }).port;
    });
    afterEach(async () => { app.server.closeAllConnections(); await app.close(); });

    it('serves the official client, the body parsed by Fastify', async () => {
      expect(await greetOver(`http://127.0.0.1:${port}/mcp`)).to.deep.equal(GREETED);
    });

    it('answers malformed JSON with 400 and -32700', async () => {
      const reply = await raw(port, { headers: { ...POST_HEADERS }, body: '{"jsonrpc":' });
      expect(reply.status).to.equal(400);
      expect(reply.json).to.deep.equal({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
    });

    it('answers a body over bodyLimit with 413 and a JSON-RPC error', async () => {
      const reply = await raw(port, { headers: { ...POST_HEADERS }, body: TOO_LARGE });
      expect(reply.status).to.equal(413);
      expect(reply.json.error.code).to.equal(-32000);
    });
  });

  describe('nestApp', () => {
    let app: Awaited<ReturnType<typeof nestApp>>;
    let port: number;

    beforeEach(async () => {
      app = await nestApp(server);
      await app.listen(0, '127.0.0.1');
      port = (app.getHttpServer().address() as { port: number }).port;
    });
    afterEach(async () => { app.getHttpServer().closeAllConnections(); await app.close(); });

    it('serves the official client through the controller', async () => {
      expect(await greetOver(`http://127.0.0.1:${port}/mcp`)).to.deep.equal(GREETED);
    });

    it('answers malformed JSON with 400 and -32700, not Nest\'s own error', async () => {
      const reply = await raw(port, { headers: { ...POST_HEADERS }, body: '{"jsonrpc":' });
      expect(reply.status).to.equal(400);
      expect(reply.json).to.deep.equal({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
    });

    it('takes a call larger than Nest\'s default 100 kB', async () => {
      const initialize = JSON.parse(INITIALIZE);
      const body = JSON.stringify({ ...initialize, params: { ...initialize.params, padding: 'x'.repeat(200 * 1024) } });
      const reply = await raw(port, { headers: { ...POST_HEADERS }, body });
      expect(reply.status).to.equal(200);
      expect(reply.json.result.serverInfo).to.deep.include({ name: 'hello' });
    });
  });

  describe('serveOnNetwork', () => {
    const KEYS = new Map([['key-of-ada', 'ada']]);
    const PUBLIC = { ...POST_HEADERS, host: 'mcp.example.com' };
    let port: number;

    beforeEach(async () => { port = (await serveOnNetwork(server, KEYS, 0)).port; });

    it('serves the public Host with a known API key', async () => {
      const reply = await raw(port, { headers: { ...PUBLIC, 'x-api-key': 'key-of-ada' }, body: INITIALIZE });
      expect(reply.status).to.equal(200);
      expect(reply.headers['mcp-session-id']).to.be.a('string');
    });

    it('refuses a request without a known key with 401 and the hook\'s challenge', async () => {
      const reply = await raw(port, { headers: { ...PUBLIC, 'x-api-key': 'guess' }, body: INITIALIZE });
      expect(reply.status).to.equal(401);
      expect(reply.headers['www-authenticate']).to.equal('ApiKey realm="mcp"');
    });

    it('refuses a Host it was not given, even loopback, with 403 before authentication', async () => {
      const reply = await raw(port, { headers: { ...POST_HEADERS, host: `127.0.0.1:${port}`, 'x-api-key': 'key-of-ada' }, body: INITIALIZE });
      expect(reply.status).to.equal(403);
      expect(reply.json.error.message).to.contain('Host not allowed');
    });

    it('refuses a browser Origin it was not given with 403', async () => {
      const reply = await raw(port, { headers: { ...PUBLIC, origin: 'https://evil.example', 'x-api-key': 'key-of-ada' }, body: INITIALIZE });
      expect(reply.status).to.equal(403);
      expect(reply.json.error.message).to.contain('Origin not allowed');
    });

    it('answers the allowed Origin\'s preflight with 204 and its CORS headers', async () => {
      const reply = await raw(port, { method: 'OPTIONS', headers: { host: 'mcp.example.com', origin: 'https://app.example.com', 'access-control-request-method': 'POST' } });
      expect(reply.status).to.equal(204);
      expect(reply.headers['access-control-allow-origin']).to.equal('https://app.example.com');
      expect(reply.headers['access-control-allow-headers']).to.contain('x-api-key');
      expect(reply.headers['access-control-expose-headers']).to.contain('mcp-session-id');
    });
  });

  describe('serveWithProbes', () => {
    const database = { connected: true };
    let port: number;

    beforeEach(async () => { database.connected = true; port = (await serveWithProbes(server, database, 0)).port; });

    it('answers /healthz and /readyz whatever the Host, without credentials', async () => {
      const live = await raw(port, { method: 'GET', path: '/healthz', headers: { host: `10.0.0.7:${port}` } });
      const ready = await raw(port, { method: 'GET', path: '/readyz', headers: { host: `10.0.0.7:${port}` } });
      expect([live.status, live.json]).to.deep.equal([200, { status: 'ok' }]);
      expect([ready.status, ready.json]).to.deep.equal([200, { status: 'ready' }]);
    });

    it('answers /readyz with 503 while the check fails, /healthz still 200', async () => {
      database.connected = false;
      const ready = await raw(port, { method: 'GET', path: '/readyz' });
      expect([ready.status, ready.json]).to.deep.equal([503, { status: 'not ready' }]);
      expect((await raw(port, { method: 'GET', path: '/healthz' })).status).to.equal(200);
    });
  });
});
