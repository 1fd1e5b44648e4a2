import 'reflect-metadata';
import { expect } from 'chai';
import { connect, type Socket } from 'node:net';
import { PhantomServer, SILENT_DIAGNOSTICS, Tool } from '../../../lib';
import type { HttpListener } from '../../../lib/entries/http';
import { defaultMaxConnections } from '../../../lib/transport/http/connection-limit';
import { INITIALIZE, post } from '../../integration/support/raw-http';

class Echo {
  @Tool({ description: 'Echoes' })
  echo({ text }: { text?: string }) {
    return text ?? '';
  }
}

/** A raw connection that has sent half a request line and nothing more. */
function halfRequest(port: number): Promise<{ socket: Socket; closed: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write('POST /mc');
      resolve({ socket, closed: new Promise((done) => socket.once('close', () => done())) });
    });
    socket.on('error', () => undefined);
    socket.once('error', reject);
  });
}

/** A raw connection that holds a standalone GET stream open (a connection answering a request). */
function openStream(port: number, sessionId: string): Promise<{ socket: Socket; closed: Promise<void> }> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(`GET /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: text/event-stream\r\nMcp-Session-Id: ${sessionId}\r\nMCP-Protocol-Version: 2025-11-25\r\n\r\n`);
    });
    socket.on('error', () => undefined);
    const closed = new Promise<void>((done) => socket.once('close', () => done()));
    socket.once('data', () => resolve({ socket, closed }));
  });
}

describe('connection limit', () => {
  describe('defaultMaxConnections', () => {
    it('leaves room under the open-file limit for everything else', () => {
      const limits = 'Limit                     Soft Limit           Hard Limit           Units\nMax open files            1024                 4096                 files\n';
      expect(defaultMaxConnections(() => limits)).to.equal(1024 - 128);
    });

    it('takes a fixed default where the limit cannot be read or is unlimited', () => {
      expect(defaultMaxConnections(() => { throw new Error('no /proc'); })).to.equal(1000);
      expect(defaultMaxConnections(() => 'Max open files            unlimited            unlimited            files\n')).to.equal(1000);
    });
  });

  context('with maxConnections reached by connections that send nothing', () => {
    let server: PhantomServer;
    let listener: HttpListener;

    before(async () => {
      server = new PhantomServer({ name: 'limited', version: '1.0.0', providers: [Echo], diagnostics: SILENT_DIAGNOSTICS });
      // Deadlines far away: what frees the place is the limit, not a timeout.
      listener = await server.listen({ port: 0, maxConnections: 4, headersTimeoutMs: 120_000 });
    });

    after(async () => {
      await listener.close();
      await server.close();
    });

    it('closes the oldest idle one for a new client, which is served', async () => {
      const stalled = await Promise.all([0, 1, 2, 3].map(() => halfRequest(listener.port)));
      const closedOnes: number[] = [];
      stalled.forEach(({ closed }, index) => void closed.then(() => closedOnes.push(index)));
      const reply = await post(listener.url, INITIALIZE, { connection: 'close' });
      expect(reply.status).to.equal(200);
      await stalled[0].closed;
      expect(closedOnes).to.deep.equal([0]);
      for (const { socket } of stalled) socket.destroy();
    });
  });

  context('with maxConnections reached by connections answering requests', () => {
    let server: PhantomServer;
    let listener: HttpListener;

    before(async () => {
      server = new PhantomServer({ name: 'limited', version: '1.0.0', providers: [Echo], diagnostics: SILENT_DIAGNOSTICS });
      listener = await server.listen({ port: 0, maxConnections: 2 });
    });

    after(async () => {
      await listener.close();
      await server.close();
    });

    it('closes the new connection and keeps the busy ones', async () => {
      const init = await post(listener.url, INITIALIZE, { connection: 'close' });
      const sessionId = init.headers.get('mcp-session-id')!;
      const streams = [await openStream(listener.port, sessionId)];
      // A session has one standalone stream: the second busy connection is another session's.
      const other = (await post(listener.url, INITIALIZE, { connection: 'close' })).headers.get('mcp-session-id')!;
      streams.push(await openStream(listener.port, other));
      const extra = await halfRequest(listener.port);
      await extra.closed;
      expect(streams.map(({ socket }) => socket.destroyed)).to.deep.equal([false, false]);
      for (const { socket } of streams) socket.destroy();
    });
  });
});
