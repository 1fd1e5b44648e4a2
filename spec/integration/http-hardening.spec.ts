import 'reflect-metadata';
import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { ErrorCode, SILENT_DIAGNOSTICS, type PhantomServer } from '../../lib';
import type { HttpListener } from '../../lib/entries/http';
import { everythingServer, Extra } from './support/everything.fixture';
import { connect as connectClient } from 'phantom-mcp/testing';
import { INITIALIZE, MCP_ACCEPT, openSession, post, send } from './support/raw-http';

interface RawAnswer { status: number; body: any }

/** Writes `head` (and nothing more) on a fresh connection; resolves with what the server answers before it closes. */
function rawRequest(port: number, head: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(head));
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => { text += chunk; });
    socket.on('error', reject);
    socket.on('close', () => {
      const [headers, ...rest] = text.split('\r\n\r\n');
      let body: unknown;
      try { body = JSON.parse(rest.join('\r\n\r\n')); } catch { body = undefined; }
      resolve({ status: Number(headers.split(' ')[1]), body });
    });
  });
}

const BODY = JSON.stringify(INITIALIZE);

/** A POST of `body` with the given header lines, asking the server to close afterwards. */
function postHead(headerLines: string[], body = BODY): string {
  return ['POST /mcp HTTP/1.1', 'Content-Type: application/json', `Accept: ${MCP_ACCEPT}`, 'Connection: close', `Content-Length: ${Buffer.byteLength(body)}`, ...headerLines, '', body].join('\r\n');
}

const NEVER_ENDING_BODY = ['POST /mcp HTTP/1.1', 'Host: 127.0.0.1', 'Content-Type: application/json', `Accept: ${MCP_ACCEPT}`, 'Transfer-Encoding: chunked', '', '5', '{"jso', ''].join('\r\n');

function portOf(url: string): number {
  return Number(new URL(url).port);
}

describe('StreamableHttpHandler', () => {
  describe('#handle', () => {
    let server: PhantomServer;
    let listener: HttpListener;

    before(async () => {
      server = everythingServer({ diagnostics: SILENT_DIAGNOSTICS });
      listener = await server.listen({ port: 0 });
    });
    after(async () => { await listener.close(); await server.close(); });

    context('when a request repeats a header that must have one value', () => {
      it('refuses two Host headers with 400 (Node would keep the first)', async () => {
        const answer = await rawRequest(listener.port, postHead(['Host: 127.0.0.1', 'Host: evil.example']));
        expect(answer.status).to.equal(400);
        expect(answer.body.error.message).to.match(/host header was sent more than once/);
      });

      it('refuses two Mcp-Session-Id headers with 400 (Node would join them)', async () => {
        const session = await openSession(listener.url);
        const ping = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' });
        const answer = await rawRequest(listener.port, postHead(['Host: 127.0.0.1', `Mcp-Session-Id: ${session}`, `Mcp-Session-Id: ${session}`], ping));
        expect(answer.status).to.equal(400);
        expect(answer.body.error.message).to.match(/mcp-session-id header was sent more than once/);
      });

      it('refuses two MCP-Protocol-Version headers with 400', async () => {
        const answer = await rawRequest(listener.port, postHead(['Host: 127.0.0.1', 'MCP-Protocol-Version: 2025-11-25', 'MCP-Protocol-Version: 2025-06-18']));
        expect(answer.status).to.equal(400);
        expect(answer.body.error.message).to.match(/mcp-protocol-version header was sent more than once/);
      });

      it('still serves a request that sends each once', async () => {
        expect((await rawRequest(listener.port, postHead(['Host: 127.0.0.1', 'MCP-Protocol-Version: 2025-11-25']))).status).to.equal(200);
      });
    });

    context('when the authentication hook answers 401', () => {
      let guarded: HttpListener;

      before(async () => {
        guarded = await server.listen({ port: 0, authenticate: () => ({ allow: false, status: 401, wwwAuthenticate: 'Bearer realm="mcp"' }) });
      });
      after(() => guarded.close());

      it('says Unauthorized, not Forbidden, next to the challenge', async () => {
        const reply = await post(guarded.url, INITIALIZE);
        expect(reply.status).to.equal(401);
        expect(reply.headers.get('www-authenticate')).to.equal('Bearer realm="mcp"');
        expect(reply.json.error.message).to.equal('Unauthorized: authentication required');
      });
    });

    context('when mounted and a body never ends', () => {
      let http: Server;

      before(async () => {
        const handler = server.httpHandler({ bodyTimeoutMs: 200 });
        http = createServer((req, res) => void handler.handle(req, res));
        await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
      });
      after(async () => { http.closeAllConnections(); await new Promise((resolve) => http.close(resolve)); });

      it('answers 408 once bodyTimeoutMs has passed, and closes the connection', async () => {
        const answer = await rawRequest((http.address() as AddressInfo).port, NEVER_ENDING_BODY);
        expect(answer.status).to.equal(408);
        expect(answer.body.error.message).to.match(/^Request Timeout/);
      });
    });

    context('when maxSessions sessions are open', () => {
      let capped: PhantomServer;
      let cappedListener: HttpListener;

      before(async () => {
        capped = everythingServer({ diagnostics: SILENT_DIAGNOSTICS, maxSessions: 2 });
        cappedListener = await capped.listen({ port: 0 });
      });
      after(async () => { await cappedListener.close(); await capped.close(); });

      it('answers a further initialize with 503 and a JSON-RPC error, then accepts one again once a session ended', async () => {
        const first = await openSession(cappedListener.url);
        await openSession(cappedListener.url);
        const refused = await post(cappedListener.url, { ...INITIALIZE, id: 3 });
        expect(refused.status).to.equal(503);
        expect(refused.json).to.deep.include({ id: 3 });
        expect(refused.json.error.code).to.equal(ErrorCode.TooManySessions);
        expect(await connectClient(capped).then(() => 'connected', (error: { code?: number }) => error.code)).to.equal(ErrorCode.TooManySessions);

        await send(cappedListener.url, 'DELETE', { 'mcp-session-id': first });
        expect((await post(cappedListener.url, INITIALIZE)).status).to.equal(200);
      });
    });
  });
});

describe('PhantomServer', () => {
  describe('#listen', () => {
    let server: PhantomServer;
    let listener: HttpListener;

    before(async () => {
      server = everythingServer({ diagnostics: SILENT_DIAGNOSTICS });
      listener = await server.listen({ port: 0, headersTimeoutMs: 100, bodyTimeoutMs: 100 });
    });
    after(async () => { await listener.close(); await server.close(); });

    context('when request headers never end', () => {
      it('answers 408 and closes the connection', async () => {
        const answer = await rawRequest(listener.port, 'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n');
        expect(answer.status).to.equal(408);
      });
    });

    context('when a chunked body never ends', () => {
      it('answers 408 and closes the connection', async () => {
        expect((await rawRequest(portOf(listener.url), NEVER_ENDING_BODY)).status).to.equal(408);
      });
    });

    context('when a standalone stream stays open longer than the request deadlines', () => {
      it('keeps delivering on it: the deadlines apply to receiving requests only', async () => {
        const session = await openSession(listener.url);
        const stream = await fetch(listener.url, { headers: { accept: 'text/event-stream', 'mcp-session-id': session } });
        expect(stream.status).to.equal(200);
        await new Promise((resolve) => setTimeout(resolve, 600));
        server.add(Extra);
        const reader = stream.body!.getReader();
        let text = '';
        while (!text.includes('notifications/tools/list_changed')) {
          const { value, done } = await reader.read();
          if (done) break;
          text += Buffer.from(value).toString('utf8');
        }
        await reader.cancel();
        expect(text).to.include('notifications/tools/list_changed');
      });
    });
  });
});
