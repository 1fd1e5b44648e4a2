import 'reflect-metadata';
import { expect } from 'chai';
import { Context, PhantomServer, SILENT_DIAGNOSTICS, Tool, type HttpListener } from '../../lib';
import { Field } from '../../lib';
import { IsString } from 'class-validator';
import { openSession, post } from './support/raw-http';
import { call, meta } from './support/stateless-client';

class RegionArgs { @Field({ description: 'Region', header: 'Region' }) @IsString() region!: string; }

let releaseSlow: () => void = () => {};

class Regressions {
  @Tool({ description: 'Visible to admins only', name: 'admin_route' })
  adminRoute(args: RegionArgs) { return args.region; }

  @Tool({ description: 'Asks the client model' })
  async ask(_args: object, ctx: Context) {
    return JSON.stringify(await ctx.sample({ messages: [], maxTokens: 5 }));
  }

  @Tool({ description: 'Runs until released or cancelled' })
  async slow(_args: object, ctx: Context) {
    await new Promise<void>((resolve) => {
      releaseSlow = resolve;
      ctx.signal.addEventListener('abort', () => resolve(), { once: true });
    });
    return 'done';
  }
}

describe('regressions found in review', () => {
  async function serve(options: Partial<ConstructorParameters<typeof PhantomServer>[0]>, listen: Parameters<PhantomServer['listen']>[0] = {}) {
    const server = new PhantomServer({ name: 'r', version: '1', providers: [Regressions], diagnostics: SILENT_DIAGNOSTICS, ...options });
    const listener: HttpListener = await server.listen({ port: 0, ...listen });
    return { server, listener, stop: async () => { await listener.close(); await server.close(); } };
  }

  it('refuses a principal that is not plain data, so two users never look alike', async () => {
    class User { #name: string; constructor(name: string) { this.#name = name; } get name() { return this.#name; } }
    const { listener, stop } = await serve({}, { authenticate: ({ headers }) => ({ allow: true, principal: new User(String(headers.authorization)) }) });
    try {
      const reply = await post(listener.url, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }, { authorization: 'alice' });
      expect(reply.status).to.equal(500);
    } finally {
      await stop();
    }
  });

  it('treats a hidden tool as unknown in the header checks too', async () => {
    const { listener, stop } = await serve({ visible: (item) => !(item.kind === 'tool' && item.name.startsWith('admin_')) });
    try {
      const hidden = await call(listener.url, 'tools/call', { _meta: meta(), name: 'admin_route', arguments: { region: 'eu' } });
      expect(hidden.body.error.code).to.equal(-32602);
      expect(hidden.body.error.message).to.equal('Unknown tool: admin_route');
    } finally {
      await stop();
    }
  });

  it('acknowledges only the notification types the server supports', async () => {
    const { listener, stop } = await serve({});
    const controller = new AbortController();
    try {
      const response = await fetch(listener.url, {
        method: 'POST', signal: controller.signal,
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'subscriptions/listen' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'subscriptions/listen', params: { _meta: meta(), notifications: { toolsListChanged: true, promptsListChanged: true, resourceSubscriptions: ['x://a'] } } }),
      });
      const reader = response.body!.getReader();
      let text = '';
      while (!text.includes('\n\n')) text += new TextDecoder().decode((await reader.read()).value);
      const ack = JSON.parse(text.split('\n').find((l) => l.startsWith('data:'))!.slice(5));
      expect(ack.params.notifications).to.deep.equal({ toolsListChanged: true });
    } finally {
      controller.abort();
      await stop();
    }
  });

  it('keeps a session alive while a request runs longer than the idle timeout', async () => {
    const { listener, stop } = await serve({ sessionIdleMs: 100 });
    try {
      const session = await openSession(listener.url);
      const running = post(listener.url, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'slow' } }, { 'mcp-session-id': session });
      await new Promise((r) => setTimeout(r, 1300));
      releaseSlow();
      const reply = await running;
      expect(reply.json).to.deep.equal({ jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'done' }] } });
      expect((await post(listener.url, { jsonrpc: '2.0', id: 3, method: 'ping' }, { 'mcp-session-id': session })).status).to.equal(200);
    } finally {
      await stop();
    }
  });

  it('answers a cancelled request with an event stream that ends, not a 204', async () => {
    const { listener, stop } = await serve({});
    try {
      const session = await openSession(listener.url);
      const running = post(listener.url, { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'slow' } }, { 'mcp-session-id': session });
      await new Promise((r) => setTimeout(r, 50));
      await post(listener.url, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 5 } }, { 'mcp-session-id': session });
      const reply = await running;
      expect(reply.status).to.equal(200);
      expect(reply.headers.get('content-type')).to.equal('text/event-stream');
      expect(reply.text).to.equal('');
    } finally {
      await stop();
    }
  });

  it('refuses params nested too deeply to seal into a requestState (at parse time, -32600), and keeps serving', async () => {
    const { listener, stop } = await serve({});
    try {
      let deep: unknown = 'x';
      for (let i = 0; i < 200; i += 1) deep = [deep];
      const reply = await call(listener.url, 'tools/call', { _meta: meta({ sampling: {} }), name: 'ask', extra: deep });
      expect(reply.body.error.message).to.match(/nests deeper than 100 levels/);
      expect(reply.status).to.equal(400);
      expect(reply.body.error.code).to.equal(-32600);
      const next = await call(listener.url, 'tools/call', { _meta: meta({ sampling: {} }), name: 'ask' });
      expect(next.body.result.resultType).to.equal('input_required');
    } finally {
      await stop();
    }
  });
});
