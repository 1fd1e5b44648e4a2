import 'reflect-metadata';
import { expect } from 'chai';
import { PhantomServer, SILENT_DIAGNOSTICS, Tool } from '../../lib';
import type { HttpListener } from '../../lib/entries/http';
import { INITIALIZE, post } from './support/raw-http';

class Echo {
  @Tool({ description: 'Echoes' })
  echo({ text }: { text?: string }) {
    return text ?? '';
  }
}

describe('a server whose heap is past maxHeapUsedRatio', () => {
  let server: PhantomServer;
  let listener: HttpListener;

  before(async () => {
    // Any heap is past a ratio this small: every new request meets a "full" heap.
    server = new PhantomServer({ name: 'full', version: '1.0.0', providers: [Echo], diagnostics: SILENT_DIAGNOSTICS, maxHeapUsedRatio: 1e-9 });
    listener = await server.listen({ port: 0 });
  });

  after(async () => {
    await listener.close();
    await server.close();
  });

  it('refuses a new request with 503, Retry-After and -32010, and goes on serving', async () => {
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const reply = await post(listener.url, INITIALIZE);
      expect(reply.status).to.equal(503);
      expect(reply.headers.get('retry-after')).to.equal('1');
      expect(reply.json).to.deep.include({ jsonrpc: '2.0', id: 1 });
      expect(reply.json.error).to.include({ code: -32010 });
      expect(reply.json.error.message).to.match(/low on memory/);
    }
  });

  it('still takes notifications, which may be what frees memory (a cancellation)', async () => {
    const reply = await post(listener.url, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } }, { 'mcp-protocol-version': '2026-07-28' });
    expect(reply.status).to.not.equal(503);
  });
});
