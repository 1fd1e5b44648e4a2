import 'reflect-metadata';
import { expect } from 'chai';
import { IsBoolean } from 'class-validator';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Elicit, Field, PhantomServer, Resource, ServerClosingError, SILENT_DIAGNOSTICS, Tool, type Context, type HttpOptions } from '../../../lib';
import type { StreamableHttpHandler } from '../../../lib/entries/http';
import { InMemoryEventStore, InMemorySessionStore, InProcessSessionBus } from '../../../lib/entries/seams';
import { connectHttp } from '../../integration/support/sdk-clients';
import { INITIALIZE, openEvents, openSession, openSse, post, send, sseIds, sseMessages } from '../../integration/support/raw-http';
import { call, meta, VERSION } from '../../integration/support/stateless-client';
import { Gate } from '../../support/gate';
import { NodeBus } from '../../support/node-bus';

let gate: Gate;

@Elicit({ message: 'Go on?' })
class Proceed {
  @Field({ title: 'Go on' }) @IsBoolean() go!: boolean;
}

class Shop {
  @Tool({ description: 'Answers once the spec opens its gate' })
  async wait(_args: object, ctx: Context) {
    await gate.pass(ctx.signal);
    return 'finished';
  }

  @Tool({ description: 'Answers at once' })
  quick() { return 'quick'; }

  @Tool({ description: 'Reports progress, drops its connection, and answers once the spec opens its gate' })
  async relay(_args: object, ctx: Context) {
    await ctx.progress(1);
    await ctx.closeStream();
    await gate.pass(ctx.signal);
    return 'relayed';
  }

  @Tool({ description: 'Asks the user first' })
  async ask(_args: object, ctx: Context) {
    const answer = await ctx.elicit(Proceed);
    return answer.action === 'accept' && answer.content.go ? 'went on' : 'stopped';
  }
}

class Notes {
  @Resource('shop://notes/{n}', { description: 'A note' })
  note({ n }: { n: string }) { return `note ${n}`; }
}
const noteUri = (n: number) => `shop://notes/${n}`;
const updated = (n: number) => ({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: noteUri(n) } });

const CANCELLED = { code: -32000, message: 'Server shutting down: the request did not finish in time and was cancelled' };
const REFUSED = { code: -32000, message: 'Server shutting down: no new requests are accepted' };

/** The handler mounted in a host server of its own, which keeps serving when the handler closes. */
async function mounted(options: HttpOptions = {}): Promise<{ server: PhantomServer; handler: StreamableHttpHandler; url: string; host: Server }> {
  const server = new PhantomServer({ name: 'shop', version: '1', providers: [Shop], forms: [Proceed], diagnostics: SILENT_DIAGNOSTICS });
  const handler = server.httpHandler(options);
  const host = createServer((req, res) => void handler.handle(req, res));
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
  return { server, handler, host, url: `http://127.0.0.1:${(host.address() as AddressInfo).port}/mcp` };
}

async function stop(host: Server, server: PhantomServer): Promise<void> {
  host.closeAllConnections();
  await new Promise((resolve) => host.close(resolve));
  await server.close();
}

describe('StreamableHttpHandler', () => {
  beforeEach(() => { gate = new Gate(); });

  describe('#handle', () => {
    context('when a client resumes a stream with Last-Event-ID on another node that shares the stores', () => {
      it('replays what it missed, then carries on with what the first node sends, the result included', async () => {
        const sessionStore = new InMemorySessionStore();
        const eventStore = new InMemoryEventStore();
        const nodes = [0, 1].map(() => new PhantomServer({ name: 'shop', version: '1', providers: [Shop], sessionStore, diagnostics: SILENT_DIAGNOSTICS }));
        const [first, second] = await Promise.all(nodes.map((node) => node.listen({ port: 0, eventStore })));
        try {
          const session = await openSession(first.url);
          const progress = { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'p', progress: 1 } };

          const dropped = await post(first.url, { jsonrpc: '2.0', id: 'r', method: 'tools/call', params: { name: 'relay', _meta: { progressToken: 'p' } } }, { 'mcp-session-id': session });
          expect(sseMessages(dropped.text)).to.deep.equal([progress]);
          const resumed = await openSse(second.url, { headers: { accept: 'text/event-stream', 'mcp-session-id': session, 'last-event-id': sseIds(dropped.text)[0] } });
          expect(resumed.status).to.equal(200);
          expect(await resumed.next()).to.deep.equal(progress);
          gate.open();
          expect(await resumed.next()).to.deep.equal({ jsonrpc: '2.0', id: 'r', result: { content: [{ type: 'text', text: 'relayed' }] } });
        } finally {
          gate.open();
          await Promise.all(nodes.map((node) => node.close()));
        }
      });
    });

    context('when a client resumes its standalone stream on another node after its connection to the first dropped', () => {
      it('takes the stream over: replays what the client missed, then carries each notification once, the first node gone or not', async () => {
        const sessionStore = new InMemorySessionStore();
        const eventStore = new InMemoryEventStore();
        const bus = new InProcessSessionBus();
        const nodes = [0, 1].map(() => new PhantomServer({ name: 'shop', version: '1', providers: [Shop, Notes], sessionStore, bus: new NodeBus(bus), diagnostics: SILENT_DIAGNOSTICS }));
        const [first, second] = await Promise.all(nodes.map((node) => node.listen({ port: 0, eventStore })));
        try {
          const session = { 'mcp-session-id': await openSession(first.url) };
          for (const n of [1, 2, 3, 4]) await post(first.url, { jsonrpc: '2.0', id: n, method: 'resources/subscribe', params: { uri: noteUri(n) } }, session);
          const dropped = await openEvents(first.url, session);
          await nodes[0].resourceUpdated(noteUri(1));
          const heard = await dropped.next();
          expect(heard.message).to.deep.equal(updated(1));
          dropped.close();
          await nodes[0].resourceUpdated(noteUri(2));

          const resumed = await openEvents(second.url, { ...session, 'last-event-id': heard.id });
          const missed = await resumed.next();
          await nodes[1].resourceUpdated(noteUri(3));
          const next = await resumed.next();
          await nodes[0].close();
          await nodes[1].resourceUpdated(noteUri(4));
          const last = await resumed.next();
          expect([missed, next, last].map((event) => event.message)).to.deep.equal([updated(2), updated(3), updated(4)]);
          const stored = await eventStore.after(heard.id);
          expect(stored.map((event) => event.message), 'each notification stored once').to.deep.equal([updated(2), updated(3), updated(4)]);
          expect(stored.map((event) => event.id)).to.deep.equal([missed.id, next.id, last.id]);
          resumed.close();
        } finally {
          await Promise.all(nodes.map((node) => node.close()));
        }
      });
    });
  });

  describe('#close', () => {
    context('when mounted in a host server that keeps serving', () => {
      it('answers new requests with 503, a JSON-RPC error with their id and Connection: close', async () => {
        const { server, handler, url, host } = await mounted();
        const session = await openSession(url);
        await handler.close();
        const refused = await post(url, { jsonrpc: '2.0', id: 7, method: 'ping' }, { 'mcp-session-id': session });
        expect(refused.status).to.equal(503);
        expect(refused.headers.get('connection')).to.equal('close');
        expect(refused.json).to.deep.equal({ jsonrpc: '2.0', id: 7, error: REFUSED });
        expect((await post(url, INITIALIZE)).status).to.equal(503);
        expect((await send(url, 'GET', { accept: 'text/event-stream', 'mcp-session-id': session })).status).to.equal(503);
        await stop(host, server);
      });

      it('still takes notifications and responses, which start nothing', async () => {
        const { server, handler, url, host } = await mounted();
        const session = await openSession(url);
        await handler.close();
        expect((await post(url, { jsonrpc: '2.0', method: 'notifications/roots/list_changed' }, { 'mcp-session-id': session })).status).to.equal(202);
        await stop(host, server);
      });

      it('lets a call in flight finish: the official client gets its result', async () => {
        const { server, handler, url, host } = await mounted();
        const { client } = await connectHttp(url);
        const result = client.callTool({ name: 'wait' });
        await gate.entered;
        const closed = handler.close();
        gate.open();
        expect(await result).to.deep.equal({ content: [{ type: 'text', text: 'finished' }] });
        await closed;
        await client.close();
        await stop(host, server);
      });

      it('lets a call waiting on ctx.elicit finish: the client\'s answer still gets in', async () => {
        const { server, handler, url, host } = await mounted();
        const { client } = await connectHttp(url, { elicitation: {} });
        let closed: Promise<void> | undefined;
        client.setRequestHandler(ElicitRequestSchema, async () => {
          closed = handler.close();
          return { action: 'accept', content: { go: true } };
        });
        expect(await client.callTool({ name: 'ask' })).to.deep.equal({ content: [{ type: 'text', text: 'went on' }] });
        await closed;
        await client.close();
        await stop(host, server);
      });
    });

    context('when a call outlives shutdownTimeoutMs', () => {
      it('answers a batch with what its requests have by then, and an error for the one still running', async () => {
        const { server, handler, url, host } = await mounted({ shutdownTimeoutMs: 50 });
        const init = await post(url, { ...INITIALIZE, params: { ...INITIALIZE.params, protocolVersion: '2025-03-26' } });
        const headers = { 'mcp-session-id': init.headers.get('mcp-session-id')!, 'mcp-protocol-version': '2025-03-26' };
        await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers);
        const batch = post(url, [
          { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'quick' } },
          { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'wait' } },
        ], headers);
        await gate.entered;
        await handler.close();
        expect((await batch).json).to.deep.equal([
          { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'quick' }] } },
          { jsonrpc: '2.0', id: 2, error: CANCELLED },
        ]);
        expect(await gate.aborted).to.be.instanceOf(ServerClosingError);
        await stop(host, server);
      });
    });

    context('when the client speaks the stateless era', () => {
      it('lets a call in flight finish', async () => {
        const { server, handler, url, host } = await mounted();
        const reply = call(url, 'tools/call', { _meta: meta(), name: 'wait' });
        await gate.entered;
        const closed = handler.close();
        gate.open();
        expect((await reply).body.result.content).to.deep.equal([{ type: 'text', text: 'finished' }]);
        await closed;
        await stop(host, server);
      });

      it('answers a call that outlives shutdownTimeoutMs with an error carrying its id, and cancels its handler', async () => {
        const { server, handler, url, host } = await mounted({ shutdownTimeoutMs: 50 });
        const reply = post(url, { jsonrpc: '2.0', id: 'late', method: 'tools/call', params: { _meta: meta(), name: 'wait' } },
          { 'mcp-protocol-version': VERSION, 'mcp-method': 'tools/call', 'mcp-name': 'wait' });
        await gate.entered;
        await handler.close();
        expect((await reply).json).to.deep.equal({ jsonrpc: '2.0', id: 'late', error: CANCELLED });
        expect(await gate.aborted).to.be.instanceOf(ServerClosingError);
        await stop(host, server);
      });

      it('ends a subscriptions/listen stream with its closing response', async () => {
        const { server, handler, url, host } = await mounted();
        const stream = await openSse(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': VERSION, 'mcp-method': 'subscriptions/listen' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 'listen', method: 'subscriptions/listen', params: { _meta: meta(), notifications: { toolsListChanged: true } } }),
        });
        expect((await stream.next()).method).to.equal('notifications/subscriptions/acknowledged');
        await handler.close();
        const closing = await stream.next();
        expect(closing).to.include({ id: 'listen' });
        expect(closing.result.resultType).to.equal('complete');
        await stop(host, server);
      });
    });
  });
});
