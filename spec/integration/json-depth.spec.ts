import 'reflect-metadata';
import { expect } from 'chai';
import { PassThrough } from 'node:stream';
import { Context, PhantomServer, SILENT_DIAGNOSTICS, StdioTransport, Tool } from '../../lib';
import type { HttpListener } from '../../lib/entries/http';
import { INITIALIZE, openSession, post } from './support/raw-http';
import { call, meta } from './support/stateless-client';

class Echo {
  @Tool({ description: 'Echoes its arguments' })
  echo(args: object) { return JSON.stringify(args); }

  @Tool({ description: 'Asks the client model: its first answer seals the request into a requestState' })
  async ask(_args: object, ctx: Context) {
    return JSON.stringify(await ctx.sample({ messages: [], maxTokens: 5 }));
  }
}

/** `levels` objects nested inside each other, as JSON text (`{"a":{"a":...{}}}`). */
function nestedObjects(levels: number): string {
  return `${'{"a":'.repeat(levels - 1)}{}${'}'.repeat(levels - 1)}`;
}

/** An `initialize` whose capabilities nest 3,000 levels deep: 24 KB of valid JSON. */
const DEEP_INITIALIZE = `{"jsonrpc":"2.0","id":7,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":${nestedObjects(3000)},"clientInfo":{"name":"deep","version":"1"}}}`;

const REFUSED_TOO_DEEP = { code: -32600, message: 'Invalid Request: the message nests deeper than 100 levels' };

describe('the JSON depth limit (maxJsonDepth)', () => {
  context('over Streamable HTTP', () => {
    let server: PhantomServer;
    let listener: HttpListener;

    beforeEach(async () => {
      server = new PhantomServer({ name: 'd', version: '1', providers: [Echo], diagnostics: SILENT_DIAGNOSTICS });
      listener = await server.listen({ port: 0 });
    });

    afterEach(async () => {
      await listener.close();
      await server.close();
    });

    it('answers an initialize with deeply nested capabilities with -32600 and its own id, then serves the next one', async () => {
      const reply = await post(listener.url, DEEP_INITIALIZE);
      expect(reply.status).to.equal(400);
      expect(reply.json).to.deep.equal({ jsonrpc: '2.0', id: 7, error: REFUSED_TOO_DEEP });
      expect((await post(listener.url, INITIALIZE)).status).to.equal(200);
    });

    it('answers a deeply nested tools/call of a session with its own id, and the session goes on', async () => {
      const session = await openSession(listener.url);
      const body = `{"jsonrpc":"2.0","id":"deep-1","method":"tools/call","params":{"name":"echo","arguments":{"tree":${nestedObjects(500)}}}}`;
      const reply = await post(listener.url, body, { 'mcp-session-id': session });
      expect(reply.status).to.equal(400);
      expect(reply.json).to.deep.equal({ jsonrpc: '2.0', id: 'deep-1', error: REFUSED_TOO_DEEP });
      const next = await post(listener.url, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { a: 1 } } }, { 'mcp-session-id': session });
      expect(next.json.result.content[0].text).to.equal('{"a":1}');
    });

    it('refuses a stateless request whose params nest too deeply to seal into a requestState, when parsed (400, -32600), and serves the next one', async () => {
      let deep: unknown = 'x';
      for (let i = 0; i < 200; i += 1) deep = [deep];
      const reply = await call(listener.url, 'tools/call', { _meta: meta({ sampling: {} }), name: 'ask', extra: deep });
      expect(reply.status).to.equal(400);
      expect(reply.body.error).to.deep.equal(REFUSED_TOO_DEEP);
      const next = await call(listener.url, 'tools/call', { _meta: meta({ sampling: {} }), name: 'ask' });
      expect(next.body.result.resultType).to.equal('input_required');
    });
  });

  context('over stdio', () => {
    async function stdio(options: { maxJsonDepth?: number } = {}) {
      const input = new PassThrough();
      const output = new PassThrough();
      const server = new PhantomServer({ name: 'd', version: '1', providers: [Echo], diagnostics: SILENT_DIAGNOSTICS, ...options });
      const connection = await server.connect(new StdioTransport({ input, output }));
      const lines = async () => {
        input.end();
        await connection.done;
        await server.close();
        return String(output.read() ?? '').trim().split('\n').map((line) => JSON.parse(line));
      };
      return { input, lines };
    }

    it('answers an initialize with deeply nested capabilities with -32600 and its own id, then accepts a good one', async () => {
      const { input, lines } = await stdio();
      input.write(`${DEEP_INITIALIZE}\n`);
      input.write(`${JSON.stringify({ ...INITIALIZE, id: 8 })}\n`);
      const [refused, initialized] = await lines();
      expect(refused).to.deep.equal({ jsonrpc: '2.0', id: 7, error: REFUSED_TOO_DEEP });
      expect(initialized.id).to.equal(8);
      expect(initialized.result.protocolVersion).to.equal('2025-11-25');
    });

    it('serves a message nested exactly maxJsonDepth levels deep and refuses one level more', async () => {
      const { input, lines } = await stdio({ maxJsonDepth: 6 });
      input.write(`${JSON.stringify(INITIALIZE)}\n`);
      // The message is level 1, params 2, arguments 3: a value of 3 nested levels ends at level 6.
      input.write(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"v":${nestedObjects(3)}}}}\n`);
      input.write(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"v":${nestedObjects(4)}}}}\n`);
      const [, served, refused] = (await lines()).sort((a, b) => a.id - b.id);
      expect(served.id).to.equal(2);
      expect(served.result.content[0].text).to.equal('{"v":{"a":{"a":{}}}}');
      expect(refused).to.deep.equal({ jsonrpc: '2.0', id: 3, error: { code: -32600, message: 'Invalid Request: the message nests deeper than 6 levels' } });
    });
  });
});
