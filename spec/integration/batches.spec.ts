import 'reflect-metadata';
import { expect } from 'chai';
import { IsString } from 'class-validator';
import { PassThrough } from 'node:stream';
import { Context, Field, PhantomServer, Resource, SILENT_DIAGNOSTICS, StdioTransport, Tool } from '../../lib';
import type { HttpListener } from '../../lib/entries/http';
import { INITIALIZE, MCP_ACCEPT, openSse, post, sseMessages } from './support/raw-http';

class EchoArgs {
  @Field({ description: 'Text' }) @IsString() text!: string;
}

class Batched {
  @Tool({ description: 'Echoes its text' })
  echo(args: EchoArgs) { return args.text; }

  @Tool({ description: 'Reports progress once' })
  async step(_args: object, ctx: Context) {
    await ctx.progress(1, 1);
    return 'stepped';
  }

  @Resource('batch://a', { description: 'One resource to watch' })
  a() { return 'a'; }

  @Resource('batch://b', { description: 'Another resource to watch' })
  b() { return 'b'; }
}

const ping = (id: number) => ({ jsonrpc: '2.0', id, method: 'ping' });
const echo = (id: number, text: string) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: { text } } });
const echoed = (id: number, text: string) => ({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text }] } });
const initializeAt = (protocolVersion: string, id: number | string = 1) => ({ ...INITIALIZE, id, params: { ...INITIALIZE.params, protocolVersion } });

describe('JSON-RPC batches', () => {
  let server: PhantomServer;

  beforeEach(() => {
    server = new PhantomServer({ name: 'b', version: '1', providers: [Batched], diagnostics: SILENT_DIAGNOSTICS });
  });

  afterEach(() => server.close());

  context('over Streamable HTTP', () => {
    let listener: HttpListener;

    beforeEach(async () => { listener = await server.listen({ port: 0 }); });
    afterEach(() => listener.close());

    async function sessionAt(version: string): Promise<Record<string, string>> {
      const init = await post(listener.url, initializeAt(version));
      expect(init.json.result.protocolVersion).to.equal(version);
      const headers = { 'mcp-session-id': init.headers.get('mcp-session-id')!, 'mcp-protocol-version': version };
      await post(listener.url, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers);
      return headers;
    }

    context('when the session speaks 2025-03-26', () => {
      it('answers a batch of requests with one JSON array of their responses', async () => {
        const headers = await sessionAt('2025-03-26');
        const reply = await post(listener.url, [ping(1), echo(2, 'two'), { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 99 } }], headers);
        expect(reply.status).to.equal(200);
        expect(reply.headers.get('content-type')).to.equal('application/json');
        expect(reply.json).to.deep.equal([{ jsonrpc: '2.0', id: 1, result: {} }, echoed(2, 'two')]);
      });

      it('answers a batch of notifications and responses with 202 and no body', async () => {
        const headers = await sessionAt('2025-03-26');
        const reply = await post(listener.url, [{ jsonrpc: '2.0', method: 'notifications/roots/list_changed' }, { jsonrpc: '2.0', id: 77, result: {} }], headers);
        expect(reply.status).to.equal(202);
        expect(reply.text).to.equal('');
      });

      it('carries the batch on an SSE stream when a request sends a notification first', async () => {
        const headers = await sessionAt('2025-03-26');
        const step = { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'step', _meta: { progressToken: 'p' } } };
        const reply = await post(listener.url, [step, echo(4, 'four')], headers);
        expect(reply.headers.get('content-type')).to.equal('text/event-stream');
        const messages = sseMessages(reply.text);
        expect(messages[0]).to.deep.equal({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'p', progress: 1, total: 1 } });
        expect(messages.slice(1)).to.deep.equal([echoed(3, 'stepped'), echoed(4, 'four')]);
      });

      it('refuses initialize inside a batch with -32600 and its id, and answers the other elements', async () => {
        const headers = await sessionAt('2025-03-26');
        const reply = await post(listener.url, [initializeAt('2025-03-26', 'again'), 'not a message', echo(5, 'five')], headers);
        expect(reply.status).to.equal(200);
        expect(reply.json).to.deep.equal([
          { jsonrpc: '2.0', id: 'again', error: { code: -32600, message: 'Invalid Request: initialize must not be part of a batch' } },
          { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: a message must be a JSON object' } },
          echoed(5, 'five'),
        ]);
      });

      it('answers a batch of only invalid elements with 400 and their errors', async () => {
        const headers = await sessionAt('2025-03-26');
        const reply = await post(listener.url, [initializeAt('2025-03-26', 6)], headers);
        expect(reply.status).to.equal(400);
        expect(reply.json).to.deep.equal([{ jsonrpc: '2.0', id: 6, error: { code: -32600, message: 'Invalid Request: initialize must not be part of a batch' } }]);
      });

      it('keeps every change its requests make to the session (two subscribes in one batch)', async () => {
        const headers = await sessionAt('2025-03-26');
        const subscribe = (id: number, uri: string) => ({ jsonrpc: '2.0', id, method: 'resources/subscribe', params: { uri } });
        const reply = await post(listener.url, [subscribe(1, 'batch://a'), subscribe(2, 'batch://b')], headers);
        expect(reply.json).to.deep.equal([{ jsonrpc: '2.0', id: 1, result: {} }, { jsonrpc: '2.0', id: 2, result: {} }]);
        const stream = await openSse(listener.url, { headers: { ...headers, accept: MCP_ACCEPT } });
        try {
          await server.resourceUpdated('batch://a');
          await server.resourceUpdated('batch://b');
          server.removeTool('step'); // its list change ends what the stream carries for this spec
          const heard: string[] = [];
          for (let message = await stream.next(); message.method !== 'notifications/tools/list_changed'; message = await stream.next()) heard.push(message.params.uri);
          expect(heard).to.deep.equal(['batch://a', 'batch://b']);
        } finally {
          stream.close();
        }
      });

      it('refuses an empty batch with -32600', async () => {
        const headers = await sessionAt('2025-03-26');
        const reply = await post(listener.url, [], headers);
        expect(reply.status).to.equal(400);
        expect(reply.json).to.deep.equal({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: an empty batch' } });
      });
    });

    context('when the session speaks a later revision', () => {
      for (const version of ['2025-06-18', '2025-11-25']) {
        it(`refuses a batch at ${version} with 400 and -32600`, async () => {
          const headers = await sessionAt(version);
          const reply = await post(listener.url, [ping(1)], headers);
          expect(reply.status).to.equal(400);
          expect(reply.json).to.deep.equal({
            jsonrpc: '2.0', id: null, error: { code: -32600, message: `Invalid Request: batches are not supported in protocol version ${version}; send one message at a time` },
          });
        });
      }
    });

    context('when there is no session', () => {
      it('refuses a batch, initialize included, with 400 and -32600', async () => {
        const reply = await post(listener.url, [initializeAt('2025-03-26')]);
        expect(reply.status).to.equal(400);
        expect(reply.json.error.code).to.equal(-32600);
      });
    });
  });

  context('over stdio', () => {
    async function stdio(version: string) {
      const input = new PassThrough();
      const output = new PassThrough();
      const connection = await server.connect(new StdioTransport({ input, output }));
      input.write(`${JSON.stringify(initializeAt(version, 'init'))}\n`);
      const lines = async () => {
        input.end();
        await connection.done;
        return String(output.read() ?? '').trim().split('\n').map((line) => JSON.parse(line)).filter((m) => m.id !== 'init');
      };
      return { input, lines };
    }

    it('answers a line holding a batch with one line holding the array of its responses (2025-03-26)', async () => {
      const { input, lines } = await stdio('2025-03-26');
      input.write(`${JSON.stringify([echo(2, 'two'), { jsonrpc: '2.0', method: 'notifications/initialized' }, ping(3)])}\n`);
      expect(await lines()).to.deep.equal([[echoed(2, 'two'), { jsonrpc: '2.0', id: 3, result: {} }]]);
    });

    it('refuses a batch in a later revision with one error', async () => {
      const { input, lines } = await stdio('2025-11-25');
      input.write(`${JSON.stringify([ping(2)])}\n`);
      expect(await lines()).to.deep.equal([
        { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: batches are not supported in protocol version 2025-11-25; send one message at a time' } },
      ]);
    });
  });
});
