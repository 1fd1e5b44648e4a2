import 'reflect-metadata';
import { expect } from 'chai';
import { SILENT_DIAGNOSTICS, type PhantomServer } from '../../../lib';
import type { FetchHandler, HttpListener } from '../../../lib/entries/http';
import { Gate } from '../../support/gate';
import { Everything, Extra, everythingServer } from '../../integration/support/everything.fixture';
import { Held } from '../../integration/support/held.fixture';
import { INITIALIZE, MCP_ACCEPT, sseIds, sseMessages } from '../../integration/support/raw-http';
import { meta, VERSION } from '../../integration/support/stateless-client';

const ENDPOINT = 'http://localhost/mcp';
interface Reply { status: number; headers: Headers; text: string; json: any }

async function replyOf(response: Response): Promise<Reply> {
  const text = await response.text();
  let json: unknown;
  try { json = JSON.parse(text); } catch { json = undefined; }
  return { status: response.status, headers: response.headers, text, json };
}

function postRequest(body: unknown, headers: Record<string, string> = {}, url = ENDPOINT): Request {
  return new Request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: MCP_ACCEPT, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** A stateless-era (2026-07-28) request with the headers the revision asks for. */
function statelessCall(name: string, args: Record<string, unknown> = {}, extraMeta: Record<string, unknown> = {}, signal?: AbortSignal): Request {
  return new Request(ENDPOINT, {
    method: 'POST',
    signal,
    headers: { 'content-type': 'application/json', accept: MCP_ACCEPT, 'mcp-protocol-version': VERSION, 'mcp-method': 'tools/call', 'mcp-name': name },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args, _meta: meta({}, extraMeta) } }),
  });
}

/** Reads SSE `data:` payloads off a live body, one message at a time (priming events skipped). */
function sseReader(response: Response) {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  return {
    reader,
    async next(): Promise<any> {
      for (;;) {
        const messages = sseMessages(buffer.slice(0, buffer.lastIndexOf('\n\n') + 2));
        if (messages.length > 0) {
          buffer = buffer.slice(buffer.indexOf('\n\n', buffer.indexOf('data: {')) + 2);
          return messages[0];
        }
        const chunk = await reader.read();
        if (chunk.done) throw new Error('the stream ended');
        buffer += decoder.decode(chunk.value, { stream: true });
      }
    },
  };
}

describe('FetchHandler', () => {
  let server: PhantomServer;
  let mcp: FetchHandler;

  async function openSession(): Promise<string> {
    const init = await mcp(postRequest(INITIALIZE));
    const id = init.headers.get('mcp-session-id')!;
    await mcp(postRequest({ jsonrpc: '2.0', method: 'notifications/initialized' }, { 'mcp-session-id': id }));
    return id;
  }

  before(() => {
    server = everythingServer({ diagnostics: SILENT_DIAGNOSTICS, providers: [Everything, Held] });
    mcp = server.fetchHandler({ maxBodyBytes: 4096, bodyTimeoutMs: 100 });
  });
  after(() => server.close());

  describe('POST in the session era', () => {
    it('answers initialize with JSON and a session id', async () => {
      const reply = await replyOf(await mcp(postRequest(INITIALIZE)));
      expect(reply.status).to.equal(200);
      expect(reply.headers.get('content-type')).to.equal('application/json');
      expect(reply.headers.get('mcp-session-id')).to.match(/^[0-9a-f]{32}$/);
      expect(reply.json.result.serverInfo).to.deep.equal({ name: 'everything', version: '1.2.3' });
    });

    it('answers a call that sends nothing first with plain JSON', async () => {
      const session = await openSession();
      const reply = await replyOf(await mcp(postRequest({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'a' } } }, { 'mcp-session-id': session })));
      expect(reply.headers.get('content-type')).to.equal('application/json');
      expect(reply.json).to.deep.equal({ jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'a' }] } });
    });

    it('answers a call with progress as an event stream: the progress, then the response', async () => {
      const session = await openSession();
      const reply = await replyOf(await mcp(postRequest({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'steps', _meta: { progressToken: 'p' } } }, { 'mcp-session-id': session })));
      expect(reply.status).to.equal(200);
      expect(reply.headers.get('content-type')).to.equal('text/event-stream');
      expect(sseMessages(reply.text).map((m) => m.params?.progress ?? `response ${m.id}`)).to.deep.equal([1, 2, 3, 'response 3']);
    });

    it('returns the Response once the stream starts, and writes events into it as they happen', async () => {
      Held.gate = new Gate();
      const session = await openSession();
      const response = await mcp(postRequest({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'heldAfterProgress', _meta: { progressToken: 'h' } } }, { 'mcp-session-id': session }));
      expect(response.headers.get('content-type')).to.equal('text/event-stream');
      const events = sseReader(response);
      expect((await events.next()).params).to.include({ progressToken: 'h', progress: 1 });
      Held.gate.open();
      expect(await events.next()).to.deep.equal({ jsonrpc: '2.0', id: 4, result: { content: [{ type: 'text', text: 'done' }] } });
    });

    context('when the client aborts the request before anything was written', () => {
      it('settles with a Response at once, while the call goes on (a session-era call outlives its connection)', async () => {
        Held.gate = new Gate();
        const session = await openSession();
        const controller = new AbortController();
        const request = new Request(ENDPOINT, {
          method: 'POST',
          signal: controller.signal,
          headers: { 'content-type': 'application/json', accept: MCP_ACCEPT, 'mcp-session-id': session },
          body: JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'held' } }),
        });
        const response = mcp(request);
        await Held.gate.entered;
        controller.abort();
        expect(await response).to.be.instanceOf(Response);
        Held.gate.open();
      });
    });

    it('answers notifications and responses with 202', async () => {
      const session = await openSession();
      expect((await mcp(postRequest({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 99 } }, { 'mcp-session-id': session }))).status).to.equal(202);
      expect((await mcp(postRequest({ jsonrpc: '2.0', id: 12345, result: {} }, { 'mcp-session-id': session }))).status).to.equal(202);
    });
  });

  describe('POST in the stateless era', () => {
    it('answers a call with JSON', async () => {
      const reply = await replyOf(await mcp(statelessCall('echo', { text: 'stateless' })));
      expect(reply.status).to.equal(200);
      expect(reply.json.result.content).to.deep.equal([{ type: 'text', text: 'stateless' }]);
    });

    context('when the client cancels the body of a streaming answer', () => {
      it('cancels the call, as a closed connection does on Node', async () => {
        Held.gate = new Gate();
        const response = await mcp(statelessCall('heldAfterProgress', {}, { progressToken: 'c' }));
        const events = sseReader(response);
        expect((await events.next()).params).to.include({ progress: 1 });
        await events.reader.cancel();
        expect(await Held.gate.aborted).to.equal('the client closed the response stream');
      });
    });

    context('when the client aborts the request before anything was written', () => {
      it('cancels the call and still settles with a Response', async () => {
        Held.gate = new Gate();
        const controller = new AbortController();
        const response = mcp(statelessCall('held', {}, {}, controller.signal));
        await Held.gate.entered;
        controller.abort();
        expect(await Held.gate.aborted).to.equal('the client closed the response stream');
        expect(await response).to.be.instanceOf(Response);
      });
    });
  });

  describe('GET and DELETE', () => {
    it('opens a standalone stream (409 for a second) and delivers list changes on it', async () => {
      const session = await openSession();
      const stream = await mcp(new Request(ENDPOINT, { headers: { accept: 'text/event-stream', 'mcp-session-id': session } }));
      expect(stream.status).to.equal(200);
      expect(stream.headers.get('content-type')).to.equal('text/event-stream');
      expect((await mcp(new Request(ENDPOINT, { headers: { accept: 'text/event-stream', 'mcp-session-id': session } }))).status).to.equal(409);
      const events = sseReader(stream);
      server.add(Extra);
      expect(await events.next()).to.deep.equal({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
      server.removeTool('extra');
      await events.reader.cancel();
    });

    it('resumes a stream after Last-Event-ID with what was missed', async () => {
      const session = await openSession();
      const streamed = await replyOf(await mcp(postRequest({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'steps', _meta: { progressToken: 'p' } } }, { 'mcp-session-id': session })));
      const replay = await replyOf(await mcp(new Request(ENDPOINT, { headers: { accept: 'text/event-stream', 'mcp-session-id': session, 'last-event-id': sseIds(streamed.text)[1] } })));
      expect(replay.status).to.equal(200);
      expect(sseMessages(replay.text).map((m) => m.params?.progress ?? `response ${m.id}`)).to.deep.equal([2, 3, 'response 3']);
    });

    it('ends a session with DELETE, then answers 404', async () => {
      const session = await openSession();
      expect((await mcp(new Request(ENDPOINT, { method: 'DELETE', headers: { 'mcp-session-id': session } }))).status).to.equal(200);
      expect((await mcp(new Request(ENDPOINT, { method: 'DELETE', headers: { 'mcp-session-id': session } }))).status).to.equal(404);
    });
  });

  describe('body limits', () => {
    it('answers a body past maxBodyBytes with 413', async () => {
      const reply = await replyOf(await mcp(postRequest({ ...INITIALIZE, params: { ...INITIALIZE.params, pad: 'x'.repeat(8192) } })));
      expect(reply.status).to.equal(413);
      expect(reply.json.error.message).to.equal('Payload Too Large: the body exceeds 4096 bytes');
    });

    it('answers a streamed body that grows past maxBodyBytes with 413, without reading the rest', async () => {
      let pulled = 0;
      const body = new ReadableStream<Uint8Array>({ pull(controller) { pulled += 1; controller.enqueue(new Uint8Array(1024).fill(32)); } });
      const reply = await replyOf(await mcp(new Request(ENDPOINT, { method: 'POST', headers: { 'content-type': 'application/json', accept: MCP_ACCEPT }, body, duplex: 'half' } as RequestInit)));
      expect(reply.status).to.equal(413);
      expect(pulled).to.be.below(10);
    });

    it('answers a body that does not arrive within bodyTimeoutMs with 408', async () => {
      const body = new ReadableStream<Uint8Array>({ start(controller) { controller.enqueue(new TextEncoder().encode('{"jsonrpc":')); } });
      const reply = await replyOf(await mcp(new Request(ENDPOINT, { method: 'POST', headers: { 'content-type': 'application/json', accept: MCP_ACCEPT }, body, duplex: 'half' } as RequestInit)));
      expect(reply.status).to.equal(408);
      expect(reply.json.error.message).to.equal('Request Timeout: the body did not arrive within 100 ms');
    });

    it('answers truncated JSON with 400 and -32700', async () => {
      const reply = await replyOf(await mcp(postRequest('{"jsonrpc":"2.0","id":1,"method":')));
      expect(reply.status).to.equal(400);
      expect(reply.json).to.deep.equal({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
    });
  });

  describe('the guards', () => {
    it('answers a CORS preflight from a loopback Origin with 204 and the CORS headers', async () => {
      const reply = await mcp(new Request(ENDPOINT, { method: 'OPTIONS', headers: { origin: 'http://localhost:5173' } }));
      expect(reply.status).to.equal(204);
      expect(reply.headers.get('access-control-allow-origin')).to.equal('http://localhost:5173');
    });

    it('refuses a session id sent twice with 400', async () => {
      const session = await openSession();
      const headers = new Headers({ 'content-type': 'application/json', accept: MCP_ACCEPT });
      headers.append('mcp-session-id', session);
      headers.append('mcp-session-id', session);
      const reply = await replyOf(await mcp(new Request(ENDPOINT, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }) })));
      expect(reply.status).to.equal(400);
      expect(reply.json.error.message).to.match(/mcp-session-id header was sent more than once/);
    });

    context('with an authenticate hook', () => {
      let guarded: FetchHandler;

      before(() => {
        guarded = server.fetchHandler({
          authenticate: ({ headers, url }) => (headers.authorization === 'Bearer good' && url === '/mcp?tenant=1'
            ? { allow: true, principal: { sub: 'ada' } }
            : { allow: false, status: 401, wwwAuthenticate: 'Bearer realm="mcp"' }),
        });
      });

      it('answers 401 with the challenge without credentials', async () => {
        const reply = await guarded(postRequest(INITIALIZE, {}, `${ENDPOINT}?tenant=1`));
        expect(reply.status).to.equal(401);
        expect(reply.headers.get('www-authenticate')).to.equal('Bearer realm="mcp"');
      });

      it('lets the request in with them, showing the hook the path and query', async () => {
        const reply = await guarded(postRequest(INITIALIZE, { authorization: 'Bearer good' }, `${ENDPOINT}?tenant=1`));
        expect(reply.status).to.equal(200);
      });
    });
  });

  describe('the same answers as the node handler', () => {
    let listener: HttpListener;

    before(async () => { listener = await server.listen({ port: 0, maxBodyBytes: 4096, bodyTimeoutMs: 100 }); });
    after(() => listener.close());

    const JSON_POST = { 'content-type': 'application/json', accept: MCP_ACCEPT };
    const CASES: Array<[string, RequestInit]> = [
      ['a foreign Origin', { method: 'POST', body: '{}', headers: { ...JSON_POST, origin: 'https://evil.example' } }],
      ['a method the endpoint does not serve', { method: 'PUT', body: '{}' }],
      ['a POST that does not accept SSE', { method: 'POST', body: JSON.stringify(INITIALIZE), headers: { ...JSON_POST, accept: 'application/json' } }],
      ['a POST that is not JSON', { method: 'POST', body: JSON.stringify(INITIALIZE), headers: { ...JSON_POST, 'content-type': 'text/plain' } }],
      ['a request without a session', { method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'tools/list' }), headers: JSON_POST }],
      ['an unknown session', { method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/list' }), headers: { ...JSON_POST, 'mcp-session-id': 'f'.repeat(32) } }],
      ['a JSON array', { method: 'POST', body: JSON.stringify([INITIALIZE]), headers: JSON_POST }],
      ['a body past maxBodyBytes', { method: 'POST', body: JSON.stringify({ ...INITIALIZE, pad: 'x'.repeat(8192) }), headers: JSON_POST }],
      ['a GET of the stateless era', { headers: { accept: 'text/event-stream', 'mcp-protocol-version': VERSION } }],
      ['a stateless call without its Mcp-Method header', { method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id: 6, method: 'tools/list', params: { _meta: meta() } }), headers: { ...JSON_POST, 'mcp-protocol-version': VERSION } }],
    ];

    for (const [name, init] of CASES) {
      it(`answers ${name} with the node handler's status, Allow header and body`, async () => {
        const viaFetch = await replyOf(await mcp(new Request(ENDPOINT, init)));
        const viaNode = await replyOf(await fetch(listener.url, init));
        expect(viaFetch.status).to.be.within(400, 499);
        const seen = (reply: Reply) => ({ status: reply.status, allow: reply.headers.get('allow'), type: reply.headers.get('content-type'), body: reply.json });
        expect(seen(viaFetch)).to.deep.equal(seen(viaNode));
      });
    }

    it('answers a foreign Host with 403, as the node handler does', async () => {
      const reply = await replyOf(await mcp(postRequest(INITIALIZE, {}, 'http://evil.example/mcp')));
      expect(reply.status).to.equal(403);
      expect(reply.json.error.message).to.equal('Forbidden: Host not allowed');
    });
  });

  describe('#close', () => {
    it('lets a call in flight finish, then answers new requests with 503', async () => {
      Held.gate = new Gate();
      const closing = everythingServer({ diagnostics: SILENT_DIAGNOSTICS, providers: [Everything, Held] });
      const handler = closing.fetchHandler();
      const running = handler(statelessCall('held'));
      await Held.gate.entered;
      const closed = handler.close();
      const refused = await replyOf(await handler(statelessCall('echo', { text: 'late' })));
      expect(refused.status).to.equal(503);
      Held.gate.open();
      expect((await replyOf(await running)).json.result.content).to.deep.equal([{ type: 'text', text: 'done' }]);
      await closed;
      await closing.close();
    });
  });
});
