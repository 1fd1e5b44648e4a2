import 'reflect-metadata';
import { expect } from 'chai';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { Context, SILENT_DIAGNOSTICS, Tool, type CallHandler, type ExecutionContext, type Interceptor, type ListenOptions, type PhantomServer, type PhantomServerOptions } from '../../lib';
import type { HttpListener } from '../../lib/entries/http';
import { Gate } from '../support/gate';
import { Everything, everythingServer } from './support/everything.fixture';
import { INITIALIZE, openSession, post } from './support/raw-http';
import { connectHttp } from './support/sdk-clients';

const IDLE_MS = 200;

/** Lets `periods` idle timeouts pass. */
const idle = (periods: number) => new Promise((resolve) => setTimeout(resolve, periods * IDLE_MS));

let held = new Gate();

class Held {
  @Tool({ description: 'Runs until the spec opens its gate' })
  async held(_args: object, ctx: Context) {
    await held.pass(ctx.signal);
    return 'done';
  }
}

describe('session rules over Streamable HTTP', () => {
  let server: PhantomServer;
  let listener: HttpListener;

  async function serve(options: Partial<PhantomServerOptions> = {}, listen: ListenOptions = {}): Promise<string> {
    server = everythingServer({ diagnostics: SILENT_DIAGNOSTICS, sessionIdleMs: IDLE_MS, ...options });
    listener = await server.listen({ port: 0, ...listen });
    return listener.url;
  }

  afterEach(async () => {
    await listener.close();
    await server.close();
  });

  describe('the idle clock (sessionIdleMs)', () => {
    const ping = (url: string, session: string, id: number) => post(url, { jsonrpc: '2.0', id, method: 'ping' }, { 'mcp-session-id': session });

    context('when the client sends nothing', () => {
      it('expires the session: 404', async () => {
        const url = await serve();
        const session = await openSession(url);
        await idle(3);
        expect((await ping(url, session, 2)).status).to.equal(404);
      });
    });

    context('when the client only pings', () => {
      it('keeps the session past several idle periods', async () => {
        const url = await serve();
        const session = await openSession(url);
        for (let id = 2; id < 22; id += 1) {
          expect((await ping(url, session, id)).status).to.equal(200);
          await idle(0.25);
        }
        const reply = await post(url, { jsonrpc: '2.0', id: 99, method: 'tools/list' }, { 'mcp-session-id': session });
        expect(reply.status).to.equal(200);
        expect(reply.json.result.tools).to.be.an('array').that.is.not.empty;
      });
    });

    // Each kind alone: a client that only sends one of them must keep its session by it.
    const onlyOneKind: ReadonlyArray<[string, object]> = [
      ['notifications', { jsonrpc: '2.0', method: 'notifications/roots/list_changed' }],
      ['responses', { jsonrpc: '2.0', id: 77, result: {} }],
    ];
    for (const [kind, message] of onlyOneKind) {
      context(`when the client only sends ${kind}`, () => {
        it('keeps the session past several idle periods', async () => {
          const url = await serve();
          const session = await openSession(url);
          for (let i = 0; i < 20; i += 1) {
            expect((await post(url, message, { 'mcp-session-id': session })).status).to.equal(202);
            await idle(0.25);
          }
          expect((await ping(url, session, 2)).status).to.equal(200);
        });
      });
    }

    context('when a protocol method (ping) takes a while to answer', () => {
      it('restarts the clock when it is answered, not when it arrived', async () => {
        class SlowPing implements Interceptor {
          async intercept(call: ExecutionContext, next: CallHandler): Promise<unknown> {
            if (call.method === 'ping') await new Promise((resolve) => setTimeout(resolve, 450));
            return next();
          }
        }
        const url = await serve({ sessionIdleMs: 600 });
        server.use(new SlowPing());
        const session = await openSession(url);
        expect((await ping(url, session, 2)).status).to.equal(200);
        // 750 ms after it arrived, 300 ms after it was answered: alive only if the clock restarted at the answer.
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect((await post(url, { jsonrpc: '2.0', id: 3, method: 'tools/list' }, { 'mcp-session-id': session })).status).to.equal(200);
      });
    });

    context('when a request runs longer than sessionIdleMs', () => {
      it('keeps the session while it runs: the request is answered and the session serves the next one', async () => {
        held = new Gate();
        const url = await serve({ providers: [Everything, Held] });
        const session = await openSession(url);
        const running = post(url, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'held' } }, { 'mcp-session-id': session });
        await held.entered;
        await idle(6);
        held.open();
        expect((await running).json).to.deep.equal({ jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'done' }] } });
        expect((await ping(url, session, 3)).status).to.equal(200);
      });
    });

    context('when the client only holds its GET stream open', () => {
      it('keeps the session and its subscriptions past several idle periods (official SDK client)', async () => {
        const url = await serve();
        const { client } = await connectHttp(url);
        const updated = new Promise<string>((resolve) => client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => resolve(n.params.uri)));
        await client.subscribeResource({ uri: 'test://watched' });
        await idle(5);
        expect((await client.listTools()).tools).to.be.an('array').that.is.not.empty;
        await server.resourceUpdated('test://watched');
        expect(await updated).to.equal('test://watched');
        await client.close();
      });
    });
  });

  describe('the principal a session is bound to', () => {
    context('when the authentication hook returns it with its keys in another order', () => {
      it('serves the session as the same principal (no 403)', async () => {
        let calls = 0;
        const url = await serve({}, {
          authenticate: () => {
            calls += 1;
            return { allow: true, principal: calls % 2 === 1 ? { sub: 'ada', roles: ['dev'], org: { id: 7, name: 'x' } } : { org: { name: 'x', id: 7 }, roles: ['dev'], sub: 'ada' } };
          },
        });
        const session = await openSession(url);
        for (let id = 2; id < 5; id += 1) {
          expect((await post(url, { jsonrpc: '2.0', id, method: 'ping' }, { 'mcp-session-id': session })).status).to.equal(200);
        }
      });
    });

    context('when the authentication hook returns a principal that is not plain data (a class instance)', () => {
      it('refuses to open the session (500), since its private fields would make every user look alike', async () => {
        class User { #name: string; constructor(name: string) { this.#name = name; } get name() { return this.#name; } }
        const url = await serve({}, { authenticate: ({ headers }) => ({ allow: true, principal: new User(String(headers.authorization)) }) });
        const reply = await post(url, INITIALIZE, { authorization: 'alice' });
        expect(reply.status).to.equal(500);
        expect(reply.headers.get('mcp-session-id')).to.equal(null);
      });
    });

    context('when another principal uses the session', () => {
      it('answers 403', async () => {
        const url = await serve({}, { authenticate: ({ headers }) => ({ allow: true, principal: { sub: String(headers['x-user']) } }) });
        const session = await openSession(url, { 'x-user': 'ada' });
        expect((await post(url, { jsonrpc: '2.0', id: 2, method: 'ping' }, { 'mcp-session-id': session, 'x-user': 'eve' })).status).to.equal(403);
      });
    });
  });
});
