import 'reflect-metadata';
import { expect } from 'chai';
import { PassThrough } from 'node:stream';
import { InMemorySessionStore, PhantomServer, SILENT_DIAGNOSTICS, StdioTransport, Tool } from '../../lib';

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
