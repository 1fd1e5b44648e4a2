import 'reflect-metadata';
import { expect } from 'chai';
import type { ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { PhantomServer, Resource, SILENT_DIAGNOSTICS, Tool, type CallHandler, type ExecutionContext } from '../../lib';
import type { HttpListener } from '../../lib/entries/http';
import { Extra, everythingServer, observed } from './support/everything.fixture';
import { connect, textOf } from 'phantom-mcp/testing';
import { call, meta } from './support/stateless-client';

const ADA = { name: 'Ada', email: 'ada@example.com', role: 'dev' };

describe('stateless era (2026-07-28) over HTTP', () => {
  let server: PhantomServer;
  let listener: HttpListener;
  let url: string;

  before(async () => {
    server = everythingServer({ diagnostics: SILENT_DIAGNOSTICS, stateTtlMs: 60_000 });
    listener = await server.listen({ port: 0 });
    url = listener.url;
  });

  after(async () => {
    await listener.close();
    await server.close();
  });

  describe('server/discover', () => {
    it('advertises versions, capabilities, identity and caching', async () => {
      const reply = await call(url, 'server/discover', { _meta: meta() });
      expect(reply.status).to.equal(200);
      expect(reply.body.result).to.deep.equal({
        resultType: 'complete',
        supportedVersions: ['2026-07-28'],
        capabilities: { logging: {}, completions: {}, tools: { listChanged: true }, prompts: { listChanged: true }, resources: { subscribe: true, listChanged: true } },
        instructions: 'Use every tool',
        ttlMs: 60000,
        cacheScope: 'public',
        _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'everything', version: '1.2.3' } },
      });
    });
  });

  describe('request validation, in the revision order', () => {
    const cases: Array<[string, () => Promise<any>, number, number]> = [
      ['a missing _meta', () => call(url, 'tools/list', {}), 400, -32602],
      ['a _meta without clientCapabilities', () => call(url, 'tools/list', { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } }), 400, -32602],
      ['a missing MCP-Protocol-Version header', () => call(url, 'tools/list', { _meta: meta() }, { 'mcp-protocol-version': undefined }), 400, -32020],
      ['a version header that disagrees with _meta', () => call(url, 'tools/list', { _meta: meta({}, { 'io.modelcontextprotocol/protocolVersion': 'v999' }) }), 400, -32020],
      ['a missing Mcp-Method header', () => call(url, 'tools/list', { _meta: meta() }, { 'mcp-method': undefined }), 400, -32020],
      ['an Mcp-Method of another case', () => call(url, 'tools/list', { _meta: meta() }, { 'mcp-method': 'TOOLS/LIST' }), 400, -32020],
      ['an Mcp-Name naming another tool', () => call(url, 'tools/call', { _meta: meta(), name: 'echo', arguments: { text: 'x' } }, { 'mcp-name': 'steps' }), 400, -32020],
      ['an unsupported version', () => call(url, 'tools/list', { _meta: meta({}, { 'io.modelcontextprotocol/protocolVersion': 'v999' }) }, { 'mcp-protocol-version': 'v999' }), 400, -32022],
      ['a session-era method', () => call(url, 'ping', { _meta: meta() }), 404, -32601],
      ['initialize', () => call(url, 'initialize', { _meta: meta() }), 404, -32601],
      ['a method named like an Object.prototype member', () => call(url, 'toString', { _meta: meta() }), 404, -32601],
      ['a missing client capability', () => call(url, 'tools/call', { _meta: meta(), name: 'ask' }), 400, -32021],
    ];
    for (const [name, send, status, code] of cases) {
      it(`answers ${name} with HTTP ${status} and ${code}`, async () => {
        const reply = await send();
        expect(reply.status).to.equal(status);
        expect(reply.body.error.code).to.equal(code);
        expect(reply.body.id).to.be.a('number');
      });
    }

    it('lists the supported versions and names the required capability', async () => {
      const version = await call(url, 'tools/list', { _meta: meta({}, { 'io.modelcontextprotocol/protocolVersion': 'v999' }) }, { 'mcp-protocol-version': 'v999' });
      expect(version.body.error.data).to.deep.equal({ supported: ['2026-07-28'], requested: 'v999' });
      const capability = await call(url, 'tools/call', { _meta: meta(), name: 'ask' });
      expect(capability.body.error.data).to.deep.equal({ requiredCapabilities: { sampling: {} } });
    });

    it('accepts a _meta without clientInfo and an Mcp-Name padded with spaces', async () => {
      const noInfo = await call(url, 'tools/list', { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } });
      expect(noInfo.status).to.equal(200);
      const padded = await call(url, 'tools/call', { _meta: meta(), name: 'echo', arguments: { text: 'x' } }, { 'mcp-name': '  echo  ' });
      expect(padded.body.result.content).to.deep.equal([{ type: 'text', text: 'x' }]);
    });
  });

  describe('results', () => {
    it('carry resultType, server identity and caching hints', async () => {
      const listed = await call(url, 'tools/list', { _meta: meta() });
      expect(listed.body.result).to.include({ resultType: 'complete', ttlMs: 60000, cacheScope: 'public' });
      const read = await call(url, 'resources/read', { _meta: meta(), uri: 'test://watched' });
      expect(read.body.result).to.deep.include({ resultType: 'complete', ttlMs: 0, cacheScope: 'private', contents: [{ uri: 'test://watched', mimeType: 'text/plain', text: 'watched' }] });
      const called = await call(url, 'tools/call', { _meta: meta(), name: 'echo', arguments: { text: 'hi' } });
      expect(called.body.result).to.deep.equal({
        content: [{ type: 'text', text: 'hi' }], resultType: 'complete',
        _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'everything', version: '1.2.3' } },
      });
    });

    it('answers an unknown resource with -32602 and the URI', async () => {
      const reply = await call(url, 'resources/read', { _meta: meta(), uri: 'test://nothing' });
      expect(reply.body.error).to.deep.equal({ code: -32602, message: 'Resource not found: test://nothing', data: { uri: 'test://nothing' } });
    });

    it('sends log messages only when _meta asks for a level', async () => {
      const quiet = await call(url, 'tools/call', { _meta: meta(), name: 'chatty' });
      expect(quiet.contentType).to.equal('application/json');
      const loud = await call(url, 'tools/call', { _meta: meta({}, { 'io.modelcontextprotocol/logLevel': 'warning' }), name: 'chatty' });
      expect(loud.events.filter((e) => e.method === 'notifications/message').map((e) => e.params.level)).to.deep.equal(['warning', 'error']);
    });
  });

  describe('multi round-trip requests', () => {
    const elicit = { elicitation: {} };

    it('runs a tool that elicits twice across two rounds', async () => {
      const first = await call(url, 'tools/call', { _meta: meta(elicit), name: 'trip' });
      expect(first.body.result.resultType).to.equal('input_required');
      const [key1] = Object.keys(first.body.result.inputRequests);
      expect(first.body.result.inputRequests[key1].method).to.equal('elicitation/create');
      expect(first.body.result.inputRequests[key1].params.message).to.equal('What is your info?');

      const second = await call(url, 'tools/call', {
        _meta: meta(elicit), name: 'trip', inputResponses: { [key1]: { action: 'accept', content: ADA } }, requestState: first.body.result.requestState,
      });
      expect(second.body.result.resultType).to.equal('input_required');
      const [key2] = Object.keys(second.body.result.inputRequests);
      expect(key2).not.to.equal(key1);
      expect(second.body.result.inputRequests[key2].params.message).to.equal('Where are you going?');
      expect(second.body.result.requestState).not.to.equal(first.body.result.requestState);

      const third = await call(url, 'tools/call', {
        _meta: meta(elicit), name: 'trip', inputResponses: { [key2]: { action: 'accept', content: { city: 'Lisbon' } } }, requestState: second.body.result.requestState,
      });
      expect(third.body.result).to.deep.include({ resultType: 'complete', content: [{ type: 'text', text: 'Ada goes to Lisbon' }] });
    });

    it('asks again when the answer is missing, ignoring unknown keys', async () => {
      const first = await call(url, 'tools/call', { _meta: meta(elicit), name: 'greet' });
      const again = await call(url, 'tools/call', { _meta: meta(elicit), name: 'greet', inputResponses: { unrelated: { action: 'accept' } }, requestState: first.body.result.requestState });
      expect(again.body.result.resultType).to.equal('input_required');
    });

    it('refuses a tampered requestState with -32602', async () => {
      const first = await call(url, 'tools/call', { _meta: meta(elicit), name: 'greet' });
      const [key] = Object.keys(first.body.result.inputRequests);
      const tampered = await call(url, 'tools/call', {
        _meta: meta(elicit), name: 'greet', inputResponses: { [key]: { action: 'accept', content: ADA } }, requestState: `${first.body.result.requestState}x`,
      });
      expect(tampered.status).to.equal(400);
      expect(tampered.body.error.code).to.equal(-32602);
    });

    it('refuses an expired requestState with -32602', async () => {
      const shortLived = everythingServer({ diagnostics: SILENT_DIAGNOSTICS, stateTtlMs: 1 });
      const endpoint = await shortLived.listen({ port: 0 });
      try {
        const first = await call(endpoint.url, 'tools/call', { _meta: meta(elicit), name: 'greet' });
        const [key] = Object.keys(first.body.result.inputRequests);
        await new Promise((r) => setTimeout(r, 10));
        const late = await call(endpoint.url, 'tools/call', {
          _meta: meta(elicit), name: 'greet', inputResponses: { [key]: { action: 'accept', content: ADA } }, requestState: first.body.result.requestState,
        });
        expect(late.body.error).to.include({ code: -32602, message: 'Invalid requestState: requestState has expired' });
      } finally {
        await endpoint.close();
        await shortLived.close();
      }
    });

    it('refuses a requestState replayed on another tool', async () => {
      const first = await call(url, 'tools/call', { _meta: meta(elicit), name: 'greet' });
      const replayed = await call(url, 'tools/call', { _meta: meta(elicit), name: 'trip', requestState: first.body.result.requestState });
      expect(replayed.body.error.code).to.equal(-32602);
    });

    it('refuses an answer of the wrong shape', async () => {
      const first = await call(url, 'tools/call', { _meta: meta(elicit), name: 'greet' });
      const [key] = Object.keys(first.body.result.inputRequests);
      const bad = await call(url, 'tools/call', { _meta: meta(elicit), name: 'greet', inputResponses: { [key]: 12345 }, requestState: first.body.result.requestState });
      expect(bad.body.error.code).to.equal(-32602);
    });

    it('does not elicit from a client without the capability', async () => {
      const reply = await call(url, 'tools/call', { _meta: meta(), name: 'greet' });
      expect(reply.body.result.content).to.deep.equal([{ type: 'text', text: 'Hello stranger' }]);
    });
  });

  describe('subscriptions/listen', () => {
    class OnlyWatched {
      @Tool({ description: 'Something to list' })
      thing() { return 'thing'; }

      @Resource('w://{n}', { description: 'Watched', mimeType: 'text/plain' })
      watched({ n }: { n: string }) { return n; }
    }

    async function listen(notifications: Record<string, unknown>, at = url) {
      const controller = new AbortController();
      const response = await fetch(at, {
        method: 'POST',
        signal: controller.signal,
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'subscriptions/listen' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 'listen-1', method: 'subscriptions/listen', params: { _meta: meta(), notifications } }),
      });
      const reader = response.body!.getReader();
      const frames: any[] = [];
      let buffer = '';
      const next = async () => {
        while (!buffer.includes('\n\n')) buffer += new TextDecoder().decode((await reader.read()).value);
        const at = buffer.indexOf('\n\n');
        const event = buffer.slice(0, at);
        buffer = buffer.slice(at + 2);
        const frame = JSON.parse(event.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trim()).join(''));
        frames.push(frame);
        return frame;
      };
      return { response, next, frames, close: () => controller.abort() };
    }

    it('acknowledges, then carries list changes and updates of subscribed URIs only, tagged with the listen id', async () => {
      const stream = await listen({ toolsListChanged: true, resourceSubscriptions: ['test://watched'] });
      expect(stream.response.headers.get('content-type')).to.equal('text/event-stream');
      expect(await stream.next()).to.deep.equal({
        jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged',
        params: { notifications: { toolsListChanged: true, resourceSubscriptions: ['test://watched'] }, _meta: { 'io.modelcontextprotocol/subscriptionId': 'listen-1' } },
      });
      await server.resourceUpdated('test://other');
      server.removePrompt('hello');
      server.add(Extra);
      expect(await stream.next()).to.deep.equal({ jsonrpc: '2.0', method: 'notifications/tools/list_changed', params: { _meta: { 'io.modelcontextprotocol/subscriptionId': 'listen-1' } } });
      await call(url, 'tools/call', { _meta: meta(), name: 'touch' });
      expect(await stream.next()).to.deep.equal({
        jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'test://watched', _meta: { 'io.modelcontextprotocol/subscriptionId': 'listen-1' } },
      });
      stream.close();
      server.removeTool('extra');
    });

    context('when the client asks for notifications the server does not send', () => {
      class OnlyTools {
        @Tool({ description: 'The one thing served' })
        only() { return 'only'; }
      }

      it('acknowledges only the kinds the server supports (no prompts, no resources here)', async () => {
        const toolsOnly = new PhantomServer({ name: 'tools-only', version: '1', providers: [OnlyTools], diagnostics: SILENT_DIAGNOSTICS });
        const toolsListener = await toolsOnly.listen({ port: 0 });
        try {
          const stream = await listen({ toolsListChanged: true, promptsListChanged: true, resourceSubscriptions: ['x://a'] }, toolsListener.url);
          expect((await stream.next()).params.notifications).to.deep.equal({ toolsListChanged: true });
          stream.close();
        } finally {
          await toolsListener.close();
          await toolsOnly.close();
        }
      });
    });

    context('when the server already holds maxListenStreams streams', () => {
      it('refuses another with -32010 (503) until one ends', async () => {
        const capped = new PhantomServer({ name: 'capped', version: '1', providers: [OnlyWatched], diagnostics: SILENT_DIAGNOSTICS, maxListenStreams: 1 });
        const cappedListener = await capped.listen({ port: 0 });
        try {
          const first = await listen({ toolsListChanged: true }, cappedListener.url);
          await first.next();
          const refused = await call(cappedListener.url, 'subscriptions/listen', { _meta: meta(), notifications: { toolsListChanged: true } });
          expect(refused.status).to.equal(503);
          expect(refused.body.error).to.deep.include({ code: -32010, data: { maxListenStreams: 1 } });
          first.close();
          let again: Awaited<ReturnType<typeof listen>> | undefined;
          for (let tries = 0; tries < 100 && again === undefined; tries += 1) {
            const attempt = await listen({ toolsListChanged: true }, cappedListener.url);
            if (attempt.response.headers.get('content-type') === 'text/event-stream') again = attempt;
            else await new Promise((r) => setTimeout(r, 10));
          }
          expect((await again!.next()).method).to.equal('notifications/subscriptions/acknowledged');
          again!.close();
        } finally {
          await cappedListener.close();
          await capped.close();
        }
      });
    });

    context('when a stream asks for more resource URIs than maxSubscriptionsPerSession', () => {
      it('refuses it with -32602 (400), naming the limit', async () => {
        const capped = new PhantomServer({ name: 'capped', version: '1', providers: [OnlyWatched], diagnostics: SILENT_DIAGNOSTICS, maxSubscriptionsPerSession: 2 });
        const cappedListener = await capped.listen({ port: 0 });
        try {
          const refused = await call(cappedListener.url, 'subscriptions/listen', { _meta: meta(), notifications: { resourceSubscriptions: ['w://1', 'w://2', 'w://3'] } });
          expect(refused.status).to.equal(400);
          expect(refused.body.error).to.deep.include({ code: -32602, data: { maxSubscriptionsPerSession: 2 } });
        } finally {
          await cappedListener.close();
          await capped.close();
        }
      });
    });

    it('ends the subscription when the client closes the stream', async () => {
      // The listen operation ends with its subscription: an interceptor around it sees it end.
      let ended = 0;
      server.use({
        async intercept({ method }: ExecutionContext, next: CallHandler) {
          try {
            return await next();
          } finally {
            if (method === 'subscriptions/listen') ended += 1;
          }
        },
      });
      const stream = await listen({ toolsListChanged: true });
      await stream.next();
      expect(ended).to.equal(0);
      stream.close();
      for (let waited = 0; ended === 0 && waited < 100; waited += 1) await new Promise((r) => setTimeout(r, 10));
      expect(ended).to.equal(1);
    });
  });

  describe('the session-era endpoints', () => {
    it('answers a stateless GET with 405: listen replaces the standalone stream', async () => {
      const reply = await fetch(url, { headers: { accept: 'text/event-stream', 'mcp-protocol-version': '2026-07-28' } });
      expect(reply.status).to.equal(405);
      expect(((await reply.json()) as { error: { message: string } }).error.message).to.match(/subscriptions\/listen/);
    });
  });

  describe('cancellation', () => {
    it('cancels the handler when the client closes the response stream', async () => {
      const before = observed.cancelled;
      const controller = new AbortController();
      const pending = fetch(url, {
        method: 'POST',
        signal: controller.signal,
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'wait' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { _meta: meta(), name: 'wait' } }),
      }).catch(() => undefined);
      await new Promise((r) => setTimeout(r, 50));
      controller.abort();
      await pending;
      await new Promise((r) => setTimeout(r, 50));
      expect(observed.cancelled).to.equal(before + 1);
    });
  });
});

describe('one tool class in both eras', () => {
  for (const era of ['session', 'stateless'] as const) {
    it(`runs the two-elicitation tool for the official SDK client (${era} era)`, async () => {
      const answers: ElicitResult[] = [{ action: 'accept', content: ADA }, { action: 'accept', content: { city: 'Lisbon' } }];
      const client = await connect(everythingServer(), { era, elicit: () => answers.shift()! });
      expect(textOf(await client.callTool({ name: 'trip' }))).to.equal('Ada goes to Lisbon');
      expect(answers).to.deep.equal([]);
      await client.close();
    });
  }
});
