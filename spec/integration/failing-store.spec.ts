import 'reflect-metadata';
import { expect } from 'chai';
import { PhantomServer, SILENT_DIAGNOSTICS } from '../../lib';
import type { HttpListener } from '../../lib/entries/http';
import { InMemorySessionStore, type SessionChange, type SessionState } from '../../lib/entries/seams';
import { INITIALIZE, openSession, post } from './support/raw-http';

/** A session store that starts failing when told to (a database that went away). */
class FlakyStore extends InMemorySessionStore {
  down = false;
  override async save(state: SessionState): Promise<void> {
    if (this.down) throw new Error('store down');
    return super.save(state);
  }

  override async update(id: string, change: SessionChange): Promise<SessionState | undefined> {
    if (this.down) throw new Error('store down');
    return super.update(id, change);
  }
}

describe('Streamable HTTP with a failing session store', () => {
  let store: FlakyStore;
  let server: PhantomServer;
  let listener: HttpListener;

  beforeEach(async () => {
    store = new FlakyStore();
    server = new PhantomServer({ name: 'f', version: '1', providers: [], sessionStore: store, diagnostics: SILENT_DIAGNOSTICS });
    listener = await server.listen({ port: 0 });
  });

  afterEach(async () => {
    await listener.close();
    await server.close();
  });

  it('answers initialize with -32603 and its own id', async () => {
    store.down = true;
    const reply = await post(listener.url, { ...INITIALIZE, id: 'init-1' });
    expect(reply.status).to.equal(500);
    expect(reply.json).to.deep.equal({ jsonrpc: '2.0', id: 'init-1', error: { code: -32603, message: 'Internal error' } });
  });

  it('answers a request of a session with -32603 and its own id', async () => {
    const session = await openSession(listener.url);
    store.down = true;
    const reply = await post(listener.url, { jsonrpc: '2.0', id: 41, method: 'logging/setLevel', params: { level: 'error' } }, { 'mcp-session-id': session });
    expect(reply.json).to.deep.equal({ jsonrpc: '2.0', id: 41, error: { code: -32603, message: 'Internal error' } });
  });
});
