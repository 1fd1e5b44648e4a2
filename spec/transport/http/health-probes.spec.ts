import 'reflect-metadata';
import { expect } from 'chai';
import { request } from 'node:http';
import { PhantomError, PhantomServer, SILENT_DIAGNOSTICS, Tool, type Context, type ListenOptions } from '../../../lib';
import type { HttpListener } from '../../../lib/entries/http';
import { openSession, post } from '../../integration/support/raw-http';
import { Gate } from '../../support/gate';

let gate: Gate;

class Gated {
  @Tool({ description: 'Answers once the spec opens its gate' })
  async wait(_args: object, ctx: Context) {
    await gate.pass(ctx.signal);
    return 'finished';
  }
}

interface ProbeReply { status: number; headers: Record<string, string | string[] | undefined>; body: string }

/** One request with the headers as given (fetch cannot set Host): what an orchestrator's probe sends. */
function probe(listener: HttpListener, path: string, { method = 'GET', host = `127.0.0.1:${listener.port}`, headers = {} }: { method?: string; host?: string; headers?: Record<string, string> } = {}): Promise<ProbeReply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: listener.port, path, method, headers: { host, ...headers }, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk) => { body += chunk; });
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('PhantomServer', () => {
  describe('#listen', () => {
    let server: PhantomServer;
    const listeners: HttpListener[] = [];

    async function listen(options: ListenOptions = {}): Promise<HttpListener> {
      const listener = await server.listen({ port: 0, ...options });
      listeners.push(listener);
      return listener;
    }

    beforeEach(() => {
      gate = new Gate();
      server = new PhantomServer({ name: 'probed', version: '1', providers: [Gated], diagnostics: SILENT_DIAGNOSTICS });
    });

    afterEach(async () => {
      gate.open();
      await Promise.all(listeners.splice(0).map((listener) => listener.close()));
      await server.close();
    });

    context('the liveness probe, /healthz', () => {
      it('answers 200 with a small JSON body, never cached', async () => {
        const reply = await probe(await listen(), '/healthz');
        expect(reply.status).to.equal(200);
        expect(JSON.parse(reply.body)).to.deep.equal({ status: 'ok' });
        expect(reply.headers).to.include({ 'content-type': 'application/json', 'cache-control': 'no-store' });
      });

      it('answers a probe whose Host is the machine\'s address and that carries no credentials, which the MCP endpoint refuses', async () => {
        const listener = await listen({ authenticate: () => ({ allow: false, status: 401, wwwAuthenticate: 'Bearer realm="mcp"' }) });
        expect((await probe(listener, '/healthz', { host: '10.1.2.3:3000' })).status).to.equal(200);
        expect((await probe(listener, '/readyz', { host: '10.1.2.3:3000' })).status).to.equal(200);
        expect((await probe(listener, '/mcp', { method: 'POST', host: '10.1.2.3:3000' })).status).to.equal(403);
        expect((await probe(listener, '/mcp', { method: 'POST' })).status).to.equal(401);
      });

      it('answers HEAD without a body, and other methods with 405', async () => {
        const listener = await listen();
        const head = await probe(listener, '/healthz', { method: 'HEAD' });
        expect([head.status, head.body]).to.deep.equal([200, '']);
        const posted = await probe(listener, '/healthz', { method: 'POST' });
        expect([posted.status, posted.headers.allow]).to.deep.equal([405, 'GET, HEAD']);
      });
    });

    context('the readiness probe, /readyz', () => {
      it('answers 200 when every check passes, sync or async', async () => {
        const listener = await listen({ health: { ready: [() => true, async () => true] } });
        const reply = await probe(listener, '/readyz');
        expect([reply.status, JSON.parse(reply.body)]).to.deep.equal([200, { status: 'ready' }]);
      });

      it('answers 503 while a check answers false, throws, rejects or does not answer in time', async () => {
        const failing = [() => false, () => { throw new Error('redis down'); }, async () => { throw new Error('redis down'); }, () => new Promise<boolean>(() => {})];
        for (const check of failing) {
          const listener = await listen({ health: { ready: [() => true, check], readinessCheckTimeoutMs: 20 } });
          const reply = await probe(listener, '/readyz');
          expect([reply.status, JSON.parse(reply.body)]).to.deep.equal([503, { status: 'not ready' }]);
          expect((await probe(listener, '/healthz')).status).to.equal(200);
        }
      });

      it('runs the checks once for probes that arrive while they run', async () => {
        let runs = 0;
        let release!: (ready: boolean) => void;
        const listener = await listen({ health: { ready: () => { runs++; return new Promise<boolean>((resolve) => { release = resolve; }); } } });
        let arrived = 0;
        const allArrived = new Promise<void>((resolve) => listener.server.on('request', () => { if (++arrived === 3) resolve(); }));
        const replies = Promise.all([probe(listener, '/readyz'), probe(listener, '/readyz'), probe(listener, '/readyz')]);
        await allArrived;
        release(true);
        expect((await replies).map((reply) => reply.status)).to.deep.equal([200, 200, 200]);
        expect(runs).to.equal(1);
      });

      context('once close() started', () => {
        it('answers 503 draining for drainDelayMs while the MCP endpoint still serves, then closes', async () => {
          // The window only has to outlast three loopback requests.
          const listener = await listen({ health: { drainDelayMs: 2_000 } });
          const session = await openSession(listener.url);
          const closed = listener.close();
          const ready = await probe(listener, '/readyz');
          expect([ready.status, JSON.parse(ready.body)]).to.deep.equal([503, { status: 'draining' }]);
          expect((await probe(listener, '/healthz')).status).to.equal(200);
          expect((await post(listener.url, { jsonrpc: '2.0', id: 1, method: 'ping' }, { 'mcp-session-id': session })).status).to.equal(200);
          await closed;
          const refused = await probe(listener, '/readyz').catch((error: NodeJS.ErrnoException) => error.code);
          expect(refused).to.equal('ECONNREFUSED');
        });

        it('refuses new connections at once by default, which a probe sees as not ready, while calls in flight finish', async () => {
          const listener = await listen();
          const session = await openSession(listener.url);
          const held = post(listener.url, { jsonrpc: '2.0', id: 'held', method: 'tools/call', params: { name: 'wait' } }, { 'mcp-session-id': session });
          await gate.entered;
          const closed = listener.close();
          const refused = await probe(listener, '/readyz').catch((error: NodeJS.ErrnoException) => error.code);
          expect(refused).to.equal('ECONNREFUSED');
          gate.open();
          expect((await held).status).to.equal(200);
          await closed;
        });
      });
    });

    context('with other settings', () => {
      it('serves the probes at the paths given', async () => {
        const listener = await listen({ health: { livenessPath: '/live', readinessPath: '/ready' } });
        expect([(await probe(listener, '/live')).status, (await probe(listener, '/ready')).status, (await probe(listener, '/healthz')).status]).to.deep.equal([200, 200, 404]);
      });

      it('serves none with health: false', async () => {
        const listener = await listen({ health: false });
        expect([(await probe(listener, '/healthz')).status, (await probe(listener, '/readyz')).status]).to.deep.equal([404, 404]);
      });

      it('refuses bad settings before binding, naming each', async () => {
        const error = await server.listen({ port: 0, health: { livenessPath: '/mcp', readinessPath: 'ready', readinessCheckTimeoutMs: 0, drainDelayMs: -1 } }).catch((e: unknown) => e);
        expect(error).to.be.instanceOf(PhantomError).and.have.property('code', 'health_invalid');
        expect((error as Error).message).to.include('must start with "/"').and.include("share the MCP endpoint's path /mcp")
          .and.include('readinessCheckTimeoutMs').and.include('drainDelayMs');
      });
    });
  });
});

