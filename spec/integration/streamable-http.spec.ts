import 'reflect-metadata';
import { expect } from 'chai';
import { ElicitRequestSchema, LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { SILENT_DIAGNOSTICS, type PhantomServer } from '../../lib';
import type { HttpListener } from '../../lib/entries/http';
import { Gate } from '../support/gate';
import { Held } from './support/held.fixture';
import { Everything, everythingServer } from './support/everything.fixture';
import { connectHttp } from './support/sdk-clients';
import { INITIALIZE, MCP_ACCEPT, openSession, post, send, sseIds, sseMessages } from './support/raw-http';

describe('Streamable HTTP', () => {
  let server: PhantomServer;
  let listener: HttpListener;
  let url: string;

  before(async () => {
    server = everythingServer({ diagnostics: SILENT_DIAGNOSTICS, requestTimeoutMs: 2000, providers: [Everything, Held] });
    listener = await server.listen({ port: 0, maxBodyBytes: 64 * 1024 });
    url = listener.url;
  });

  after(async () => {
    await listener.close();
    await server.close();
  });

  describe('with the official SDK client', () => {
    it('initialises, calls tools and receives notifications on the request stream', async () => {
      const { client } = await connectHttp(url);
      const logs: string[] = [];
      client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => { logs.push(n.params.level); });
      expect(await client.callTool({ name: 'echo', arguments: { text: 'over http' } })).to.deep.equal({ content: [{ type: 'text', text: 'over http' }] });
      await client.callTool({ name: 'chatty' });
      expect(logs).to.deep.equal(['debug', 'info', 'warning', 'error']);
      await client.close();
    });

    it('elicits over the request stream', async () => {
      const { client } = await connectHttp(url, { elicitation: { form: {} } });
      client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { name: 'Grace', email: 'grace@example.com', role: 'dev' } }));
      expect((await client.callTool({ name: 'greet' })).content).to.deep.equal([{ type: 'text', text: 'Hello Grace (dev)' }]);
      await client.close();
    });

    it('answers 404 once the session was deleted', async () => {
      const { client, transport } = await connectHttp(url);
      const sessionId = transport.sessionId!;
      await transport.terminateSession();
      const after = await post(url, { jsonrpc: '2.0', id: 9, method: 'tools/list' }, { 'mcp-session-id': sessionId });
      expect(after.status).to.equal(404);
      expect(after.json).to.deep.equal({ jsonrpc: '2.0', id: 9, error: { code: -32001, message: 'Session not found' } });
      await client.close();
    });
  });

  describe('POST', () => {
    it('issues a 128-bit session id at initialise, as visible ASCII', async () => {
      const init = await post(url, INITIALIZE);
      expect(init.status).to.equal(200);
      expect(init.headers.get('content-type')).to.equal('application/json');
      expect(init.headers.get('mcp-session-id')).to.match(/^[0-9a-f]{32}$/);
    });

    it('answers plain JSON when a request produces no notifications, SSE when it does', async () => {
      const session = await openSession(url);
      const plain = await post(url, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'a' } } }, { 'mcp-session-id': session });
      expect(plain.headers.get('content-type')).to.equal('application/json');
      expect(plain.json).to.deep.equal({ jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'a' }] } });
      const streamed = await post(url, { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'steps', _meta: { progressToken: 'p' } } }, { 'mcp-session-id': session });
      expect(streamed.headers.get('content-type')).to.equal('text/event-stream');
      const messages = sseMessages(streamed.text);
      expect(messages.map((m) => m.method ?? `response ${m.id}`)).to.deep.equal([
        'notifications/progress', 'notifications/progress', 'notifications/progress', 'response 3',
      ]);
      expect(sseIds(streamed.text)).to.have.length(5);
    });

    it('answers notifications and responses with 202', async () => {
      const session = await openSession(url);
      expect((await post(url, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 99 } }, { 'mcp-session-id': session })).status).to.equal(202);
      expect((await post(url, { jsonrpc: '2.0', id: 12345, result: {} }, { 'mcp-session-id': session })).status).to.equal(202);
    });

    context('when the client cancels a request while it runs', () => {
      it('ends the request\'s event stream with no response in it (200, not a 204)', async () => {
        Held.gate = new Gate();
        const session = await openSession(url);
        const running = post(url, { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'held' } }, { 'mcp-session-id': session });
        await Held.gate.entered;
        await post(url, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 5 } }, { 'mcp-session-id': session });
        const reply = await running;
        expect(reply.status).to.equal(200);
        expect(reply.headers.get('content-type')).to.equal('text/event-stream');
        expect(reply.text).to.equal('');
      });
    });

    context('when the request is bad', () => {
      it('answers truncated JSON with 400 and -32700', async () => {
        const bad = await post(url, '{"jsonrpc":"2.0","id":1,"method":');
        expect(bad.status).to.equal(400);
        expect(bad.json).to.deep.equal({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
      });

      it('answers a JSON array with 400 and -32600', async () => {
        const bad = await post(url, [INITIALIZE]);
        expect(bad.status).to.equal(400);
        expect(bad.json.error.code).to.equal(-32600);
      });

      it('answers a non-object message with 400 and -32600', async () => {
        expect((await post(url, '42')).json.error.code).to.equal(-32600);
      });

      it('answers a huge body with 413', async () => {
        const bad = await post(url, { jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(100 * 1024) } });
        expect(bad.status).to.equal(413);
        expect(bad.json.error.message).to.match(/Payload Too Large/);
      });

      it('answers a missing session id with 400', async () => {
        const bad = await post(url, { jsonrpc: '2.0', id: 4, method: 'tools/list' });
        expect(bad.status).to.equal(400);
        expect(bad.json.id).to.equal(4);
      });

      it('answers an unknown session with 404', async () => {
        expect((await post(url, { jsonrpc: '2.0', id: 5, method: 'tools/list' }, { 'mcp-session-id': 'f'.repeat(32) })).status).to.equal(404);
      });

      it('answers an unsupported protocol version header with 400', async () => {
        const session = await openSession(url);
        const bad = await post(url, { jsonrpc: '2.0', id: 6, method: 'tools/list' }, { 'mcp-session-id': session, 'mcp-protocol-version': '1999-01-01' });
        expect(bad.status).to.equal(400);
        expect(bad.json.error.message).to.match(/MCP-Protocol-Version/);
      });

      it('answers a wrong Accept with 406 and a wrong Content-Type with 415', async () => {
        expect((await post(url, INITIALIZE, { accept: 'application/json' })).status).to.equal(406);
        expect((await post(url, INITIALIZE, { 'content-type': 'text/plain' })).status).to.equal(415);
      });

      it('keeps serving after all of the above', async () => {
        const session = await openSession(url);
        expect((await post(url, { jsonrpc: '2.0', id: 7, method: 'ping' }, { 'mcp-session-id': session })).json).to.deep.equal({ jsonrpc: '2.0', id: 7, result: {} });
      });
    });
  });

  describe('GET and DELETE', () => {
    it('opens one standalone stream per session (409 for a second) and delivers list changes on it', async () => {
      const session = await openSession(url);
      const controller = new AbortController();
      const stream = await fetch(url, { headers: { accept: 'text/event-stream', 'mcp-session-id': session }, signal: controller.signal });
      expect(stream.status).to.equal(200);
      expect(stream.headers.get('content-type')).to.equal('text/event-stream');
      const second = await send(url, 'GET', { accept: 'text/event-stream', 'mcp-session-id': session });
      expect(second.status).to.equal(409);
      const reader = stream.body!.getReader();
      server.removeTool('touch');
      let text = '';
      while (!text.includes('list_changed')) text += new TextDecoder().decode((await reader.read()).value);
      expect(sseMessages(text)).to.deep.equal([{ jsonrpc: '2.0', method: 'notifications/tools/list_changed' }]);
      controller.abort();
    });

    it('resumes a stream after Last-Event-ID with what was missed', async () => {
      const session = await openSession(url);
      const streamed = await post(url, { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'steps', _meta: { progressToken: 'p' } } }, { 'mcp-session-id': session });
      const ids = sseIds(streamed.text);
      const replay = await send(url, 'GET', { accept: 'text/event-stream', 'mcp-session-id': session, 'last-event-id': ids[1] });
      expect(replay.status).to.equal(200);
      expect(sseMessages(replay.text).map((m) => m.params?.progress ?? `response ${m.id}`)).to.deep.equal([2, 3, 'response 3']);
    });

    it('refuses a Last-Event-ID of another session', async () => {
      const mine = await openSession(url);
      const theirs = await openSession(url);
      const streamed = await post(url, { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'steps', _meta: { progressToken: 'p' } } }, { 'mcp-session-id': theirs });
      const replay = await send(url, 'GET', { accept: 'text/event-stream', 'mcp-session-id': mine, 'last-event-id': sseIds(streamed.text)[0] });
      expect(replay.status).to.equal(400);
    });

    it('ends a session with DELETE, then answers 404', async () => {
      const session = await openSession(url);
      expect((await send(url, 'DELETE', { 'mcp-session-id': session })).status).to.equal(200);
      expect((await send(url, 'DELETE', { 'mcp-session-id': session })).status).to.equal(404);
    });

    it('answers other methods with 405', async () => {
      const bad = await send(url, 'PUT', {}, '{}');
      expect(bad.status).to.equal(405);
      expect(bad.headers.get('allow')).to.equal('GET, POST, DELETE, OPTIONS');
    });
  });

  describe('DNS-rebinding protection', () => {
    it('answers a foreign Origin with 403', async () => {
      const bad = await post(url, INITIALIZE, { origin: 'https://evil.example' });
      expect(bad.status).to.equal(403);
    });

    it('accepts a loopback Origin and exposes the session header to it', async () => {
      const ok = await post(url, INITIALIZE, { origin: 'http://localhost:6274' });
      expect(ok.status).to.equal(200);
      expect(ok.headers.get('access-control-allow-origin')).to.equal('http://localhost:6274');
      expect(ok.headers.get('access-control-expose-headers')).to.match(/mcp-session-id/);
    });

    it('answers a foreign Host with 403', async () => {
      const http = await import('node:http');
      const status = await new Promise<number>((resolve) => {
        const req = http.request(url, { method: 'POST', headers: { host: 'evil.example', 'content-type': 'application/json', accept: MCP_ACCEPT } }, (res) => { res.resume(); resolve(res.statusCode!); });
        req.end(JSON.stringify(INITIALIZE));
      });
      expect(status).to.equal(403);
    });
  });

  describe('authentication hook', () => {
    let authServer: PhantomServer;
    let authListener: HttpListener;

    before(async () => {
      authServer = everythingServer({ diagnostics: SILENT_DIAGNOSTICS, visible: (item, principal) => item.kind !== 'tool' || item.name !== 'echo' || (principal as { role?: string })?.role === 'admin' });
      authListener = await authServer.listen({
        port: 0,
        authenticate: ({ headers }) => {
          if (!headers.authorization) return { allow: false, status: 401, wwwAuthenticate: 'Bearer realm="mcp"' };
          if (headers.authorization === 'Bearer banned') return { allow: false, status: 403 };
          return { allow: true, principal: { role: headers.authorization === 'Bearer admin' ? 'admin' : 'user', token: headers.authorization } };
        },
      });
    });

    after(async () => { await authListener.close(); await authServer.close(); });

    it('answers 401 with a challenge without credentials', async () => {
      const bad = await post(authListener.url, INITIALIZE);
      expect(bad.status).to.equal(401);
      expect(bad.headers.get('www-authenticate')).to.equal('Bearer realm="mcp"');
    });

    it('answers 403 when the hook refuses', async () => {
      expect((await post(authListener.url, INITIALIZE, { authorization: 'Bearer banned' })).status).to.equal(403);
    });

    it('filters the tool list by principal', async () => {
      const user = await connectHttp(authListener.url, {}, { authorization: 'Bearer user' });
      const admin = await connectHttp(authListener.url, {}, { authorization: 'Bearer admin' });
      expect((await user.client.listTools()).tools.map((t) => t.name)).not.to.include('echo');
      expect((await admin.client.listTools()).tools.map((t) => t.name)).to.include('echo');
      await user.client.close();
      await admin.client.close();
    });

    it('refuses a session used with another principal', async () => {
      const session = await openSession(authListener.url, { authorization: 'Bearer user' });
      const stolen = await post(authListener.url, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { authorization: 'Bearer admin', 'mcp-session-id': session });
      expect(stolen.status).to.equal(403);
    });
  });
});
