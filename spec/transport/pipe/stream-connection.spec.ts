import 'reflect-metadata';
import { expect } from 'chai';
import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { McpError } from '@modelcontextprotocol/sdk/types.js';
import { InMemoryTransport, PhantomServer, ServerClosingError, SILENT_DIAGNOSTICS, StdioTransport, Tool, type Context } from '../../../lib';
import { InMemorySessionStore } from '../../../lib/entries/seams';
import type { MessageTransport } from '../../../lib/transport/pipe/message-transport';
import { Gate } from '../../support/gate';

class Slow {
  @Tool({ description: 'Answers after a while' })
  async slow() {
    await new Promise((r) => setTimeout(r, 100));
    return 'late but here';
  }
}

describe('StreamConnection over stdio', () => {
  context('when input ends while a request is still running', () => {
    it('still sends its answer before closing', async () => {
      const input = new PassThrough();
      const output = new PassThrough();
      const server = new PhantomServer({ name: 's', version: '1', providers: [Slow] });
      const connection = await server.connect(new StdioTransport({ input, output }));
      input.write('{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}\n');
      input.end('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"slow"}}\n');
      await connection.done;
      const lines = String(output.read()).trim().split('\n').map((l) => JSON.parse(l));
      expect(lines.map((l) => l.id)).to.deep.equal([1, 2]);
      expect(lines[1].result.content[0].text).to.equal('late but here');
      await server.close();
    });
  });

  context('when several messages come in one chunk', () => {
    it('admits them one at a time, in order: the call after initialize runs in the new session', async () => {
      const input = new PassThrough();
      const output = new PassThrough();
      const server = new PhantomServer({ name: 's', version: '1', providers: [Slow] });
      const connection = await server.connect(new StdioTransport({ input, output }));
      input.end([
        '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}',
        '{"jsonrpc":"2.0","method":"notifications/initialized"}',
        '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"slow"}}',
        'not json',
        '{"jsonrpc":"2.0","id":3,"method":"ping"}',
        '',
      ].join('\n'));
      await connection.done;
      const lines = String(output.read()).trim().split('\n').map((l) => JSON.parse(l));
      expect(lines.map((l) => l.id)).to.deep.equal([1, null, 3, 2]);
      expect(lines[1].error.code).to.equal(-32700);
      expect(lines[2]).to.deep.equal({ jsonrpc: '2.0', id: 3, result: {} });
      expect(lines[3].result.content[0].text).to.equal('late but here');
      await server.close();
    });

    it('answers a request before initialize, then initialize, in order', async () => {
      const input = new PassThrough();
      const output = new PassThrough();
      const server = new PhantomServer({ name: 's', version: '1', providers: [Slow] });
      const connection = await server.connect(new StdioTransport({ input, output }));
      input.end([
        '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
        '{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}',
        '{"jsonrpc":"2.0","id":3,"method":"tools/list"}',
        '',
      ].join('\n'));
      await connection.done;
      const lines = String(output.read()).trim().split('\n').map((l) => JSON.parse(l));
      expect(lines.map((l) => l.id)).to.deep.equal([1, 2, 3]);
      expect(lines[0].error).to.exist;
      expect(lines[2].result.tools.map((t: { name: string }) => t.name)).to.deep.equal(['slow']);
      await server.close();
    });
  });

  context('when initialize throws (the session store fails)', () => {
    it('still answers it, with its own id', async () => {
      class FailingStore extends InMemorySessionStore {
        override async save(): Promise<void> { throw new Error('store down'); }
      }
      const input = new PassThrough();
      const output = new PassThrough();
      const server = new PhantomServer({ name: 's', version: '1', providers: [Slow], sessionStore: new FailingStore(), diagnostics: SILENT_DIAGNOSTICS });
      const connection = await server.connect(new StdioTransport({ input, output }));
      input.end('{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}\n');
      await connection.done;
      expect(JSON.parse(String(output.read()))).to.deep.equal({ jsonrpc: '2.0', id: 'init', error: { code: -32603, message: 'Internal error' } });
      await server.close();
    });
  });
});

describe('StreamConnection', () => {
  let gate: Gate;

  context('when the transport delivers a message from inside its own send', () => {
    it('takes it once send has returned, never from inside it', async () => {
      const events: string[] = [];
      class Marking {
        @Tool({ description: 'Notes that it ran' })
        mark() {
          events.push('handler ran');
          return 'marked';
        }
      }
      const call = (id: number) => ({
        jsonrpc: '2.0', id, method: 'tools/call',
        params: { name: 'mark', _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } },
      });
      const answered: unknown[] = [];
      let done!: () => void;
      const bothAnswered = new Promise<void>((resolve) => { done = resolve; });
      const transport: MessageTransport = {
        async start() {},
        async close() {},
        send(message) {
          const { id } = message as { id?: unknown };
          answered.push(id);
          if (id === 1) {
            // As the SDK's in-memory pair does: the peer's next message arrives within this call.
            this.onmessage?.(call(2));
            events.push('send returned');
          }
          if (answered.length === 2) done();
          return Promise.resolve();
        },
      };
      const server = new PhantomServer({ name: 's', version: '1', providers: [Marking] });
      await server.connect(transport);
      transport.onmessage?.(call(1));
      await bothAnswered;
      expect(answered).to.deep.equal([1, 2]);
      expect(events).to.deep.equal(['handler ran', 'send returned', 'handler ran']);
      await server.close();
    });
  });

  class Gated {
    @Tool({ description: 'Answers once the spec opens its gate' })
    async wait(_args: object, ctx: Context) {
      await gate.pass(ctx.signal);
      return 'finished';
    }
  }

  const INIT = '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}\n';

  beforeEach(() => { gate = new Gate(); });

  describe('#close', () => {
    context('when a call is in flight', () => {
      it('lets it finish: the official client gets its result, then the pipe closes', async () => {
        const server = new PhantomServer({ name: 's', version: '1', providers: [Gated] });
        const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
        const connection = await server.connect(serverSide);
        const client = new Client({ name: 'c', version: '1' });
        await client.connect(clientSide);
        let clientClosed = false;
        client.onclose = () => { clientClosed = true; };
        const result = client.callTool({ name: 'wait' });
        await gate.entered;
        const closed = connection.close();
        gate.open();
        expect(await result).to.deep.equal({ content: [{ type: 'text', text: 'finished' }] });
        await closed;
        expect(clientClosed).to.equal(true);
        await server.close();
      });

      it('answers requests that arrive meanwhile at once, with an error carrying their id', async () => {
        const input = new PassThrough();
        const output = new PassThrough();
        const answers: any[] = [];
        output.on('data', (chunk) => answers.push(...String(chunk).trim().split('\n').map((line) => JSON.parse(line))));
        const answered = (id: number) => new Promise<void>((resolve) => {
          const check = () => { if (answers.some((answer) => answer.id === id)) { output.off('data', check); resolve(); } };
          output.on('data', check);
          check();
        });
        const server = new PhantomServer({ name: 's', version: '1', providers: [Gated] });
        const connection = await server.connect(new StdioTransport({ input, output }));
        input.write(INIT);
        input.write('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"wait"}}\n');
        await gate.entered;
        const closed = connection.close();
        input.write('{"jsonrpc":"2.0","id":3,"method":"ping"}\n');
        await answered(3);
        gate.open();
        await closed;
        expect(answers.map((answer) => answer.id)).to.deep.equal([1, 3, 2]);
        expect(answers[1]).to.deep.equal({ jsonrpc: '2.0', id: 3, error: { code: -32000, message: 'Server shutting down: no new requests are accepted' } });
        expect(answers[2].result.content[0].text).to.equal('finished');
        await server.close();
      });
    });

    context('when a call outlives shutdownTimeoutMs', () => {
      it('cancels its handler and answers it with an error carrying its id, then ends the session', async () => {
        const server = new PhantomServer({ name: 's', version: '1', providers: [Gated], shutdownTimeoutMs: 50 });
        const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
        const connection = await server.connect(serverSide);
        const client = new Client({ name: 'c', version: '1' });
        await client.connect(clientSide);
        const result = client.callTool({ name: 'wait' }).then(() => expect.fail('expected an error'), (error: McpError) => error);
        await gate.entered;
        await connection.close();
        expect(await result).to.include({ code: -32000 });
        expect(await gate.aborted).to.be.instanceOf(ServerClosingError);
        await server.close();
      });
    });

    it('waits for the same end when called again, or after the pipe closed', async () => {
      const server = new PhantomServer({ name: 's', version: '1', providers: [Gated] });
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      const connection = await server.connect(serverSide);
      await clientSide.close();
      expect(connection.close()).to.equal(connection.close());
      await connection.close();
      await server.close();
    });
  });
});
