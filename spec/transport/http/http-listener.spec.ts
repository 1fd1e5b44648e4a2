import 'reflect-metadata';
import { expect } from 'chai';
import { once } from 'node:events';
import { connect } from 'node:net';
import type { McpError } from '@modelcontextprotocol/sdk/types.js';
import { PhantomServer, ServerClosingError, SILENT_DIAGNOSTICS, Tool, type Context, type PhantomServerOptions } from '../../../lib';
import type { HttpListener } from '../../../lib/entries/http';
import { InMemoryEventStore, InMemorySessionStore } from '../../../lib/entries/seams';
import { connectHttp } from '../../integration/support/sdk-clients';
import { MCP_ACCEPT, openSession, post } from '../../integration/support/raw-http';
import { Gate } from '../../support/gate';

let gate: Gate;

class Gated {
  @Tool({ description: 'Answers once the spec opens its gate' })
  async wait(_args: object, ctx: Context) {
    await gate.pass(ctx.signal);
    return 'finished';
  }
}

class Later {
  @Tool({ description: 'Added while a client listens' })
  later() { return 'later'; }
}

function gatedServer(options: Partial<PhantomServerOptions> = {}): PhantomServer {
  return new PhantomServer({ name: 'gated', version: '1', providers: [Gated], diagnostics: SILENT_DIAGNOSTICS, ...options });
}

/** One raw HTTP exchange whose body is sent only when `sendBody` is called, on a connection of its own. */
function halfSent(listener: HttpListener, session: string, body: string): { sendBody: () => void; reply: Promise<string> } {
  const socket = connect(listener.port, '127.0.0.1');
  socket.write([
    'POST /mcp HTTP/1.1', 'Host: 127.0.0.1', 'Content-Type: application/json', `Accept: ${MCP_ACCEPT}`,
    `Mcp-Session-Id: ${session}`, `Content-Length: ${Buffer.byteLength(body)}`, '', '',
  ].join('\r\n'));
  let text = '';
  socket.setEncoding('utf8').on('data', (chunk) => { text += chunk; });
  const reply = new Promise<string>((resolve) => socket.once('close', () => resolve(text)));
  return { sendBody: () => socket.write(body), reply };
}

/** The `id:` and `data:` lines of the SSE events read so far. */
function events(text: string): Array<{ id?: string; data?: any }> {
  return text.split('\n\n').filter((block) => block.trim() !== '').map((block) => {
    const lines = block.split('\n');
    const id = lines.find((line) => line.startsWith('id:'))?.slice(3).trim();
    const data = lines.filter((line) => line.startsWith('data:')).map((line) => line.slice(5).trim()).join('');
    return { id, data: data === '' ? undefined : JSON.parse(data) };
  });
}

describe('HttpListener', () => {
  beforeEach(() => { gate = new Gate(); });

  describe('#close', () => {
    context('when a call is in flight', () => {
      it('lets it finish: the official client gets its result', async () => {
        const server = gatedServer();
        const listener = await server.listen({ port: 0 });
        const { client } = await connectHttp(listener.url);
        const result = client.callTool({ name: 'wait' });
        await gate.entered;
        const closed = listener.close();
        gate.open();
        expect(await result).to.deep.equal({ content: [{ type: 'text', text: 'finished' }] });
        await closed;
        await client.close();
        await server.close();
      });

      it('refuses new connections meanwhile, and closes the connection of the call once answered', async () => {
        const server = gatedServer();
        const listener = await server.listen({ port: 0 });
        const session = await openSession(listener.url);
        const held = post(listener.url, { jsonrpc: '2.0', id: 'held', method: 'tools/call', params: { name: 'wait' } }, { 'mcp-session-id': session });
        await gate.entered;
        const closed = listener.close();
        const refused = await fetch(listener.url, { method: 'POST' }).then(() => 'connected', (error: Error) => error);
        expect(refused).to.be.instanceOf(Error);
        gate.open();
        const answer = await held;
        expect(answer.json).to.deep.include({ id: 'held', result: { content: [{ type: 'text', text: 'finished' }] } });
        expect(answer.headers.get('connection')).to.equal('close');
        await closed;
        await server.close();
      });

      it('answers a request that arrives on a connection still open with 503, a JSON-RPC error with its id, and Connection: close', async () => {
        const server = gatedServer();
        const listener = await server.listen({ port: 0 });
        const session = await openSession(listener.url);
        const held = post(listener.url, { jsonrpc: '2.0', id: 'held', method: 'tools/call', params: { name: 'wait' } }, { 'mcp-session-id': session });
        await gate.entered;
        const late = halfSent(listener, session, JSON.stringify({ jsonrpc: '2.0', id: 'late', method: 'ping' }));
        await once(listener.server, 'request');
        const closed = listener.close();
        late.sendBody();
        const [head, body] = (await late.reply).split('\r\n\r\n');
        expect(head).to.match(/^HTTP\/1\.1 503 /);
        expect(head.toLowerCase()).to.include('connection: close');
        expect(JSON.parse(body)).to.deep.equal({ jsonrpc: '2.0', id: 'late', error: { code: -32000, message: 'Server shutting down: no new requests are accepted' } });
        gate.open();
        await held;
        await closed;
        await server.close();
      });
    });

    context('when a call outlives shutdownTimeoutMs', () => {
      it('cancels its handler and answers it with an error carrying its id, even though the handler never returns', async () => {
        const server = gatedServer({ shutdownTimeoutMs: 50 });
        const listener = await server.listen({ port: 0 });
        const session = await openSession(listener.url);
        const held = post(listener.url, { jsonrpc: '2.0', id: 'stuck', method: 'tools/call', params: { name: 'wait' } }, { 'mcp-session-id': session });
        await gate.entered;
        await listener.close();
        expect((await held).json).to.deep.equal({
          jsonrpc: '2.0', id: 'stuck', error: { code: -32000, message: 'Server shutting down: the request did not finish in time and was cancelled' },
        });
        expect(await gate.aborted).to.be.instanceOf(ServerClosingError);
        await server.close();
      });

      it('rejects the official client\'s call with -32000', async () => {
        const server = gatedServer({ shutdownTimeoutMs: 50 });
        const listener = await server.listen({ port: 0 });
        const { client } = await connectHttp(listener.url);
        const result = client.callTool({ name: 'wait' }).then(() => expect.fail('expected an error'), (error: McpError) => error);
        await gate.entered;
        await listener.close();
        expect((await result).code).to.equal(-32000);
        await client.close();
        await server.close();
      });
    });

    context('when a standalone GET stream is open', () => {
      it('ends it after the calls, with what they sent stored: a server sharing the stores replays it on Last-Event-ID', async () => {
        const sessionStore = new InMemorySessionStore();
        const eventStore = new InMemoryEventStore();
        const first = gatedServer({ sessionStore });
        const listener = await first.listen({ port: 0, eventStore });
        const session = await openSession(listener.url);
        const response = await fetch(listener.url, { headers: { accept: 'text/event-stream', 'mcp-session-id': session } });
        const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
        let text = '';
        while (!text.includes('\n\n')) text += (await reader.read()).value;
        const primingId = events(text)[0].id!;

        const held = post(listener.url, { jsonrpc: '2.0', id: 'held', method: 'tools/call', params: { name: 'wait' } }, { 'mcp-session-id': session });
        await gate.entered;
        const closed = listener.close();
        first.add(Later);
        gate.open();
        await held;
        await closed;
        for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += chunk.value;
        const listChanged = { jsonrpc: '2.0', method: 'notifications/tools/list_changed' };
        expect(events(text).map((event) => event.data)).to.deep.equal([undefined, listChanged]);
        expect((await eventStore.after(primingId)).map((event) => event.message)).to.deep.equal([listChanged]);

        const second = gatedServer({ sessionStore });
        const next = await second.listen({ port: 0, eventStore });
        const resumed = await fetch(next.url, { headers: { accept: 'text/event-stream', 'mcp-session-id': session, 'last-event-id': primingId } });
        expect(events(await resumed.text()).map((event) => event.data)).to.deep.equal([listChanged]);
        await second.close();
        await first.close();
      });
    });

    it('returns the same promise when called again', async () => {
      const server = gatedServer();
      const listener = await server.listen({ port: 0 });
      expect(listener.close()).to.equal(listener.close());
      await listener.close();
      await server.close();
    });
  });
});
