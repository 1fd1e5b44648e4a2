import 'reflect-metadata';
import { expect } from 'chai';
import type { AddressInfo } from 'node:net';
import type { ServerType } from '@hono/node-server';
import worker, * as hosting from '../../../docs/examples/hosting';
import { createServer as helloServer } from '../../../docs/examples/hello';
import type { PhantomServer } from '../../../lib';
import { greetOver, GREETED, INITIALIZE, POST_HEADERS } from './docs-http';

/** A POST of `initialize` to `url`, as a web `Request`. */
function initialize(url = 'http://mcp.example.com/mcp'): Request {
  return new Request(url, { method: 'POST', headers: POST_HEADERS, body: INITIALIZE });
}

async function expectSessionOpened(response: Response): Promise<void> {
  expect(response.status).to.equal(200);
  expect(response.headers.get('mcp-session-id')).to.be.a('string');
  expect(((await response.json()) as any).result.serverInfo).to.deep.include({ name: 'hello' });
}

/** Stands in for a runtime global (`Bun`, `Deno`) while `run` uses it. */
async function withGlobal(name: string, value: unknown, run: () => Promise<void>): Promise<void> {
  const scope = globalThis as Record<string, unknown>;
  scope[name] = value;
  try {
    await run();
  } finally {
    delete scope[name];
  }
}

describe('docs/examples/hosting.ts (the hosting guide)', () => {
  after(() => hosting.server.close());

  describe('mcp, the fetch handler', () => {
    it('answers a web Request for the allowed Host with a Response', async () => {
      await expectSessionOpened(await hosting.mcp(initialize()));
    });

    it('refuses another Host with 403, as the node handler does', async () => {
      const response = await hosting.mcp(initialize('http://127.0.0.1:3000/mcp'));
      expect(response.status).to.equal(403);
      expect(((await response.json()) as any).error.message).to.contain('Host not allowed');
    });
  });

  describe('serveWithHono', () => {
    let server: PhantomServer;
    let http: ServerType;
    let port: number;

    before(async () => {
      server = helloServer();
      http = hosting.serveWithHono(server.fetchHandler(), 0);
      if (!http.listening) await new Promise((ready) => http.once('listening', ready));
      port = (http.address() as AddressInfo).port;
    });
    after(async () => {
      await server.close();
      await new Promise<void>((done) => http.close(() => done()));
    });

    it('serves the official client at /mcp', async () => {
      expect(await greetOver(`http://127.0.0.1:${port}/mcp`)).to.deep.equal(GREETED);
    });

    it('leaves the app\'s other routes to Hono', async () => {
      expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).to.equal('the rest of the app');
    });
  });

  describe('serveOnBun', () => {
    it('routes /mcp to the handler with no idle timeout, and answers other paths 404', async () => {
      let options: any;
      await withGlobal('Bun', { serve: (given: unknown) => { options = given; } }, async () => {
        hosting.serveOnBun();
        const timeouts: Array<[Request, number]> = [];
        const bun = { timeout: (request: Request, seconds: number) => { timeouts.push([request, seconds]); } };
        expect(options.port).to.equal(3000);
        expect((await options.fetch(new Request('http://mcp.example.com/other'), bun)).status).to.equal(404);
        const request = initialize();
        await expectSessionOpened(await options.fetch(request, bun));
        expect(timeouts).to.deep.equal([[request, 0]]);
      });
    });
  });

  describe('serveOnDeno', () => {
    it('routes /mcp to the handler and answers other paths 404', async () => {
      let handler: any;
      await withGlobal('Deno', { serve: (_options: unknown, given: unknown) => { handler = given; } }, async () => {
        hosting.serveOnDeno();
        expect((await handler(new Request('http://mcp.example.com/other'))).status).to.equal(404);
        await expectSessionOpened(await handler(initialize()));
      });
    });
  });

  describe('the Worker module', () => {
    it('answers through its default export\'s fetch', async () => {
      await expectSessionOpened(await worker.fetch(initialize()));
    });
  });

  describe('the Next.js route', () => {
    it('is dynamic, and answers POST, GET, DELETE and OPTIONS with the handler', async () => {
      expect(hosting.dynamic).to.equal('force-dynamic');
      expect([hosting.GET, hosting.POST, hosting.DELETE, hosting.OPTIONS]).to.deep.equal([hosting.mcp, hosting.mcp, hosting.mcp, hosting.mcp]);
      await expectSessionOpened(await hosting.POST(initialize()));
    });
  });
});
