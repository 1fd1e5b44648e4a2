import 'reflect-metadata';
import { expect } from 'chai';
import { PhantomError, PhantomServer, SILENT_DIAGNOSTICS, Tool } from '../../lib';
import {
  InMemoryEventStore, InMemorySessionStore, InMemoryTaskStore, InProcessSessionBus, type BusSettings, type EventStore, type SessionBus, type SessionStore, type SessionStoreSettings, type SharedStores, type TaskStore,
} from '../../lib/entries/seams';
import { connectHttp } from '../integration/support/sdk-clients';

class Echo {
  @Tool({ description: 'Says it back' })
  echo({ text }: { text: string }) {
    return text;
  }

  @Tool({ description: 'Says nothing' })
  quiet() {
    return '';
  }
}

/** A backend that keeps everything in this process and writes down what the server asked of it. */
class RecordingStores implements SharedStores {
  readonly asked: string[] = [];
  settings?: SessionStoreSettings;
  reachable = true;
  readonly sessionStore = new InMemorySessionStore();
  readonly eventStore = new InMemoryEventStore();
  readonly sessionBus = new InProcessSessionBus();
  readonly taskStore = new InMemoryTaskStore();

  /** `secret`: what the backend's servers share (replicas: the same one). */
  constructor(private readonly secret = 'the secret of these stores') {}

  async open(): Promise<void> {
    this.asked.push('open');
    if (!this.reachable) throw new PhantomError('redis_unavailable', 'the backend cannot be reached');
  }

  sessions(settings: SessionStoreSettings): SessionStore {
    this.asked.push('sessions');
    this.settings = settings;
    return this.sessionStore;
  }

  events(): EventStore {
    this.asked.push('events');
    return this.eventStore;
  }

  tasks(): TaskStore {
    this.asked.push('tasks');
    return this.taskStore;
  }

  bus(_settings: BusSettings): SessionBus {
    this.asked.push('bus');
    return this.sessionBus;
  }

  onSecret(use: (secret: Buffer) => void): () => void {
    this.asked.push('secret');
    use(Buffer.from(this.secret));
    return () => undefined;
  }

  async ready(): Promise<boolean> {
    return this.reachable;
  }

  async close(): Promise<void> {
    this.asked.push('close');
  }
}

describe('PhantomServer', () => {
  describe('the store option (what replicas share)', () => {
    let stores: RecordingStores;
    let server: PhantomServer;

    beforeEach(() => {
      stores = new RecordingStores();
      server = new PhantomServer({ name: 'shared', version: '1', providers: [Echo], store: stores, sessionIdleMs: 60_000, diagnostics: SILENT_DIAGNOSTICS });
    });

    afterEach(async () => {
      await server.close();
    });

    context('when a client works through listen()', () => {
      it('opens the store first, then keeps sessions, SSE events and bus traffic in it', async () => {
        const listener = await server.listen({ port: 0 });
        expect(stores.asked[0]).to.equal('open');
        const { client } = await connectHttp(listener.url);
        try {
          expect((await client.callTool({ name: 'echo', arguments: { text: 'hi' } })).content).to.deep.equal([{ type: 'text', text: 'hi' }]);
          expect(stores.sessionStore.size).to.equal(1);
          expect(stores.eventStore.streamCount).to.be.greaterThan(0);
        } finally {
          await client.close();
        }
        expect(stores.asked).to.include.members(['sessions', 'bus', 'events']);
        expect(stores.settings?.idleMs).to.equal(60_000);
        await listener.close();
      });
    });

    context('when the store cannot be reached at start', () => {
      it('fails listen() with the store\'s error and binds nothing', async () => {
        stores.reachable = false;
        const failed = await server.listen({ port: 0 }).then(() => undefined, (error: unknown) => error);
        expect(failed).to.be.instanceOf(PhantomError).with.property('message', 'the backend cannot be reached');
      });
    });

    context('when the store stops answering while serving', () => {
      it('answers readiness with 503 and liveness with 200', async () => {
        const listener = await server.listen({ port: 0 });
        const base = listener.url.replace(/\/mcp$/, '');
        expect((await fetch(`${base}/readyz`)).status).to.equal(200);
        stores.reachable = false;
        expect((await fetch(`${base}/readyz`)).status).to.equal(503);
        expect((await fetch(`${base}/healthz`)).status).to.equal(200);
        stores.reachable = true;
        expect((await fetch(`${base}/readyz`)).status).to.equal(200);
        await listener.close();
      });
    });

    context('when the server closes', () => {
      it('closes the store after everything that uses it', async () => {
        await server.listen({ port: 0 });
        await server.close();
        expect(stores.asked[stores.asked.length - 1]).to.equal('close');
      });

      it('closes the store that start() opened even when nothing was served (it would keep the process alive)', async () => {
        await server.start();
        await server.close();
        expect(stores.asked.filter((step) => step === 'open' || step === 'close')).to.deep.equal(['open', 'close']);
      });
    });

    it('opens the store once, however often start() is called', async () => {
      await Promise.all([server.start(), server.start(), server.listen({ port: 0 })]);
      expect(stores.asked.filter((step) => step === 'open')).to.have.length(1);
    });

    context('when two servers\' stores give them the same secret (replicas)', () => {
      const replica = (options: { cursorKey?: string } = {}) =>
        new PhantomServer({ name: 'replica', version: '1', providers: [Echo], store: new RecordingStores('one secret'), pageSize: 1, diagnostics: SILENT_DIAGNOSTICS, ...options });
      const nextPage = async (from: PhantomServer, to: PhantomServer) => {
        const first = await from.handle('tools/list');
        const cursor = ('result' in first ? first.result : {}) as { nextCursor?: string };
        expect(cursor.nextCursor, 'a second page').to.be.a('string');
        return to.handle('tools/list', { cursor: cursor.nextCursor });
      };

      it('serves on one the next page of a list whose cursor the other signed, once both started', async () => {
        const [a, b] = [replica(), replica()];
        await Promise.all([a.start(), b.start()]);
        const page = await nextPage(a, b);
        expect(page, JSON.stringify(page)).to.have.property('result');
        expect((page as { result: { tools: { name: string }[] } }).result.tools.map((tool) => tool.name)).to.deep.equal(['quiet']);
        await Promise.all([a.close(), b.close()]);
      });

      it('keeps the cursorKey the options set, shared secret or not', async () => {
        const [a, b] = [replica({ cursorKey: 'mine' }), replica({ cursorKey: 'theirs' })];
        await Promise.all([a.start(), b.start()]);
        expect(await nextPage(a, b)).to.have.property('error').that.deep.include({ code: -32602, message: 'Invalid cursor' });
        await Promise.all([a.close(), b.close()]);
      });
    });

    it('refuses store together with sessionStore or bus, at construction', () => {
      expect(() => new PhantomServer({ name: 'x', version: '1', providers: [], store: stores, bus: new InProcessSessionBus() }))
        .to.throw(PhantomError, /either store, or sessionStore and bus/);
      expect(() => new PhantomServer({ name: 'x', version: '1', providers: [], store: stores, sessionStore: new InMemorySessionStore() }))
        .to.throw(PhantomError, /either store, or sessionStore and bus/);
    });
  });
});
