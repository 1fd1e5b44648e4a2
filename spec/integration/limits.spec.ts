import 'reflect-metadata';
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { McpError } from '@modelcontextprotocol/sdk/types.js';
import { Context, InMemoryTransport, PhantomServer, SILENT_DIAGNOSTICS, Tool, type Diagnostics, type PhantomServerOptions } from '../../lib';
import type { HttpListener } from '../../lib/entries/http';
import { InMemorySessionStore } from '../../lib/entries/seams';
import { everythingServer } from './support/everything.fixture';
import { connect } from 'phantom-mcp/testing';
import { connectHttp } from './support/sdk-clients';
import { INITIALIZE, openSession, post } from './support/raw-http';
import { call, meta } from './support/stateless-client';

const errorOf = (promise: Promise<unknown>) => promise.then(() => expect.fail('expected an error'), (error: McpError) => error);

/** Resolves once `condition` holds (checked every few milliseconds; the spec's timeout bounds it). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

let running = 0;

class Holder {
  @Tool({ description: 'Runs until cancelled' })
  async hold(_args: object, ctx: Context) {
    running += 1;
    await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
    running -= 1;
    return 'released';
  }
}

/** A hand-driven client on an in-memory pipe, for what the official client never sends. */
async function rawPipe(server: PhantomServer) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const inbox: any[] = [];
  clientSide.onmessage = (message) => { inbox.push(message); };
  await clientSide.start();
  return {
    send: (message: object) => clientSide.send(message as never),
    /** The responses that carry `id`. */
    answersTo: (id: unknown) => inbox.filter((m) => m.id === id && ('result' in m || 'error' in m)),
    close: () => clientSide.close(),
  };
}

const hold = (id: string | number, params: Record<string, unknown> = {}) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'hold', ...params } });
const cancel = (requestId: string | number) => ({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId } });

/** Diagnostics that keep the warnings they are given. */
function recording(): { diagnostics: Diagnostics; warnings: string[] } {
  const warnings: string[] = [];
  return { warnings, diagnostics: { error: () => {}, warn: (message) => { warnings.push(message); } } };
}

/** Its calls hold until cancelled, and a client that went away cannot cancel them: closing gives up on them soon. */
function holderServer(options: Partial<PhantomServerOptions> = {}): PhantomServer {
  return new PhantomServer({ name: 'holder', version: '1', providers: [Holder], diagnostics: SILENT_DIAGNOSTICS, shutdownTimeoutMs: 50, ...options });
}

describe('server limits', () => {
  describe('maxInFlightPerSession (default 100)', () => {
    context('when a session already has as many requests running as the limit', () => {
      it('answers the next one with -32010 at once, and accepts again when one finishes (HTTP)', async () => {
        const server = holderServer({ maxInFlightPerSession: 3 });
        const listener = await server.listen({ port: 0 });
        const { client } = await connectHttp(listener.url);
        running = 0;
        const controllers = [0, 1, 2].map(() => new AbortController());
        const calls = controllers.map((controller) => client.callTool({ name: 'hold' }, undefined, { signal: controller.signal }).catch(() => 'aborted'));
        await until(() => running === 3);
        const refused = await errorOf(client.callTool({ name: 'hold' }));
        expect(refused.code).to.equal(-32010);
        expect(refused.message).to.contain('this session already has 3 running');
        expect(refused.data).to.deep.equal({ maxInFlightPerSession: 3 });
        expect(await client.ping()).to.deep.equal({});
        controllers[0].abort();
        await until(() => running === 2);
        const again = new AbortController();
        const accepted = client.callTool({ name: 'hold' }, undefined, { signal: again.signal }).catch(() => 'aborted');
        await until(() => running === 3);
        for (const controller of [...controllers, again]) controller.abort();
        await Promise.all([...calls, accepted]);
        await client.close();
        await listener.close();
        await server.close();
      });

      it('applies the default of 100 on a pipe', async () => {
        const server = holderServer();
        const client = await connect(server);
        running = 0;
        const controllers = Array.from({ length: 100 }, () => new AbortController());
        const calls = controllers.map((controller) => client.callTool({ name: 'hold' }, undefined, { signal: controller.signal }).catch(() => 'aborted'));
        await until(() => running === 100);
        expect((await errorOf(client.callTool({ name: 'hold' }))).code).to.equal(-32010);
        for (const controller of controllers) controller.abort();
        await Promise.all(calls);
        await client.close();
        await server.close();
      });
    });

    context('when a request reuses the id of one of the session still running', () => {
      it('refuses it with -32600, so reused ids cannot slip past the cap and the first stays cancellable', async () => {
        const server = holderServer({ maxInFlightPerSession: 3 });
        const pipe = await rawPipe(server);
        await pipe.send(INITIALIZE);
        running = 0;
        for (let i = 0; i < 10; i += 1) await pipe.send(hold(7));
        await until(() => running + pipe.answersTo(7).length === 10);
        expect(running).to.equal(1);
        expect(pipe.answersTo(7)[0]).to.deep.equal({
          jsonrpc: '2.0', id: 7, error: { code: -32600, message: 'Invalid Request: id 7 is already used by a request of this session that is still running' },
        });
        await pipe.send(cancel(7));
        await until(() => running === 0);
        await pipe.close();
        await server.close();
      });
    });

    context('when a 2026-07-28 client on a pipe has as many requests running as the limit', () => {
      it('answers the next one with -32010 at once, refuses a reused id with -32600, and accepts again when one ends', async () => {
        const server = holderServer({ maxInFlightPerSession: 3 });
        const pipe = await rawPipe(server);
        running = 0;
        for (const id of [1, 2, 3]) await pipe.send(hold(id, { _meta: meta() }));
        await until(() => running === 3);
        await pipe.send(hold(4, { _meta: meta() }));
        await pipe.send(hold(2, { _meta: meta() }));
        await until(() => running + pipe.answersTo(4).length + pipe.answersTo(2).length === 5);
        expect(running).to.equal(3);
        expect(pipe.answersTo(4)[0].error).to.deep.equal({
          code: -32010, message: 'Too many requests in flight: this connection already has 3 running; send more when one has finished', data: { maxInFlightPerSession: 3 },
        });
        expect(pipe.answersTo(2)[0].error.code).to.equal(-32600);
        await pipe.send(cancel(1));
        await until(() => running === 2);
        await pipe.send(hold(5, { _meta: meta() }));
        await until(() => running === 3);
        await pipe.close();
        await server.close();
      });
    });

    context('when a 2025-03-26 batch holds more requests than the session may run', () => {
      it('starts as many as the limit allows and answers the others in the batch\'s array with -32010 (HTTP)', async () => {
        const server = holderServer({ maxInFlightPerSession: 2 });
        const listener = await server.listen({ port: 0 });
        try {
          const headers = { 'mcp-session-id': await openSession(listener.url, {}, '2025-03-26') };
          running = 0;
          const batch = post(listener.url, [1, 2, 3, 4, 5].map((id) => hold(id)), headers);
          await until(() => running === 2);
          for (const id of [1, 2]) expect((await post(listener.url, cancel(id), headers)).status).to.equal(202);
          const reply = await batch;
          expect(reply.status).to.equal(200);
          expect(reply.json.map((answer: any) => [answer.id, answer.error.code])).to.deep.equal([[3, -32010], [4, -32010], [5, -32010]]);
        } finally {
          await listener.close();
          await server.close();
        }
      });
    });
  });

  describe('maxSessions (default 10,000)', () => {
    context('when pipe connections hold as many sessions as the limit', () => {
      it('refuses initialize on another pipe with -32005, and accepts it once a pipe has closed (official client, in memory)', async () => {
        const sessions = new InMemorySessionStore();
        const server = holderServer({ maxSessions: 1, sessionStore: sessions });
        const first = await connect(server);
        expect((await errorOf(connect(server))).code).to.equal(-32005);
        await first.close();
        while (await sessions.count() > 0) await new Promise((resolve) => setTimeout(resolve, 5));
        const again = await connect(server);
        expect(await again.ping()).to.deep.equal({});
        await again.close();
        await server.close();
      });
    });

    context('when a session has been idle longer than sessionIdleMs, before the periodic sweep', () => {
      it('no longer takes a slot: initialize is accepted', async () => {
        const server = holderServer({ maxSessions: 1, sessionIdleMs: 100 });
        const listener = await server.listen({ port: 0 });
        try {
          await openSession(listener.url);
          await new Promise((resolve) => setTimeout(resolve, 250));
          expect((await post(listener.url, INITIALIZE)).status).to.equal(200);
        } finally {
          await listener.close();
          await server.close();
        }
      });
    });
  });

  describe('maxSubscriptionsPerSession (default 1,000)', () => {
    const item = (n: number) => `test://items/${n}`;

    context('when a session is subscribed to as many resources as the limit', () => {
      it('refuses another with -32602 saying so, takes a repeated one, and accepts again after an unsubscribe', async () => {
        const server = everythingServer({ diagnostics: SILENT_DIAGNOSTICS, maxSubscriptionsPerSession: 3 });
        const client = await connect(server);
        for (const n of [1, 2, 3]) await client.subscribeResource({ uri: item(n) });
        const refused = await errorOf(client.subscribeResource({ uri: item(4) }));
        expect(refused.code).to.equal(-32602);
        expect(refused.message).to.contain('Too many subscriptions: this session already has 3; unsubscribe from one first');
        expect(refused.data).to.deep.equal({ maxSubscriptionsPerSession: 3 });
        expect(await client.subscribeResource({ uri: item(1) })).to.deep.equal({});
        await client.unsubscribeResource({ uri: item(1) });
        expect(await client.subscribeResource({ uri: item(4) })).to.deep.equal({});
        await client.close();
        await server.close();
      });

      it('applies the default of 1,000', async () => {
        const server = everythingServer({ diagnostics: SILENT_DIAGNOSTICS });
        const client = await connect(server);
        for (let n = 0; n < 1000; n += 1) await client.subscribeResource({ uri: item(n) });
        expect((await errorOf(client.subscribeResource({ uri: item(1000) }))).data).to.deep.equal({ maxSubscriptionsPerSession: 1000 });
        await client.close();
        await server.close();
      });
    });
  });

  describe('warningRateLimit (default 10 lines of one kind per minute)', () => {
    const bogus = (id: number) => ({ jsonrpc: '2.0', id: 1000 + id, result: {} });

    context('when a client sends many responses to no pending request over HTTP', () => {
      it('writes the first lines of the window, then one line saying how many it suppressed', async () => {
        const { diagnostics, warnings } = recording();
        const server = holderServer({ diagnostics, warningRateLimit: { lines: 3, windowMs: 1500 } });
        const listener = await server.listen({ port: 0 });
        try {
          const session = await openSession(listener.url);
          for (let i = 0; i < 20; i += 1) expect((await post(listener.url, bogus(i), { 'mcp-session-id': session })).status).to.equal(202);
          expect(warnings).to.have.length(3);
          for (const line of warnings) expect(line).to.match(/a response to no pending request was ignored$/);
          await until(() => warnings.length > 3);
          expect(warnings.slice(3)).to.deep.equal(['17 similar messages suppressed (unmatched response; at most 3 per 1500 ms)']);
        } finally {
          await listener.close();
          await server.close();
        }
      });
    });

    context('when a 2025-03-26 batch carries many responses to no pending request over HTTP', () => {
      it('counts each against the same limit, and writes nothing else', async () => {
        const { diagnostics, warnings } = recording();
        const server = holderServer({ diagnostics, warningRateLimit: { lines: 3, windowMs: 60_000 } });
        const listener = await server.listen({ port: 0 });
        try {
          const session = await openSession(listener.url, {}, '2025-03-26');
          const reply = await post(listener.url, Array.from({ length: 20 }, (_, i) => bogus(i)), { 'mcp-session-id': session });
          expect(reply.status).to.equal(202);
          expect(warnings).to.have.length(3);
        } finally {
          await listener.close();
          await server.close();
        }
      });
    });

    context('when a client sends many responses to no pending request over a pipe', () => {
      it('writes at most 10 lines by default', async () => {
        const { diagnostics, warnings } = recording();
        const server = holderServer({ diagnostics });
        const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
        await server.connect(serverSide);
        const answered = new Set<unknown>();
        clientSide.onmessage = (message) => answered.add((message as { id?: unknown }).id);
        await clientSide.start();
        await clientSide.send(INITIALIZE as never);
        for (let i = 0; i < 25; i += 1) await clientSide.send(bogus(i) as never);
        await clientSide.send({ jsonrpc: '2.0', id: 'last', method: 'ping' } as never);
        await until(() => answered.has('last'));
        expect(warnings).to.have.length(10);
        await clientSide.close();
        await server.close();
      });
    });
  });

  describe('maxUriLength (default 8192 characters)', () => {
    let server: PhantomServer;
    let client: Client;
    const tooLong = `test://items/${'x'.repeat(8192)}`;
    const asks: Record<string, (uri: string) => Promise<unknown>> = {
      'resources/read': (uri) => client.readResource({ uri }),
      'resources/subscribe': (uri) => client.subscribeResource({ uri }),
      'resources/unsubscribe': (uri) => client.unsubscribeResource({ uri }),
      'completion/complete': (uri) => client.complete({ ref: { type: 'ref/resource', uri }, argument: { name: 'id', value: '' } }),
    };

    before(async () => {
      server = everythingServer({ diagnostics: SILENT_DIAGNOSTICS });
      client = await connect(server);
    });

    after(async () => {
      await client.close();
      await server.close();
    });

    context('when a request names a URI longer than the limit', () => {
      for (const [method, ask] of Object.entries(asks)) {
        it(`answers ${method} with -32602 saying so`, async () => {
          const error = await errorOf(ask(tooLong));
          expect(error.code).to.equal(-32602);
          expect(error.message).to.contain('"uri" is 8205 characters long; this server accepts URIs of up to 8192');
        });
      }

      it('answers the stateless era the same way', async () => {
        const http: HttpListener = await server.listen({ port: 0 });
        try {
          const reply = await call(http.url, 'resources/read', { _meta: meta(), uri: tooLong });
          expect(reply.body.error.code).to.equal(-32602);
          expect(reply.body.error.message).to.contain('this server accepts URIs of up to 8192');
        } finally {
          await http.close();
        }
      });
    });

    context('when the URI is within the limit', () => {
      it('serves it', async () => {
        const uri = `test://items/${'x'.repeat(8192 - 'test://items/'.length)}`;
        expect((await client.readResource({ uri })).contents).to.have.length(1);
      });
    });

    context('when the server sets its own limit', () => {
      it('applies it', async () => {
        const strict = everythingServer({ diagnostics: SILENT_DIAGNOSTICS, maxUriLength: 16 });
        const small = await connect(strict);
        expect((await errorOf(small.readResource({ uri: 'test://items/12345' }))).message).to.contain('up to 16');
        expect((await small.readResource({ uri: 'test://items/1' })).contents).to.have.length(1);
        await small.close();
        await strict.close();
      });
    });
  });
});
