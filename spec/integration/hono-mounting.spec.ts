import 'reflect-metadata';
import { expect } from 'chai';
import { Hono } from 'hono';
import { serve, type ServerType } from '@hono/node-server';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { AddressInfo } from 'node:net';
import { SILENT_DIAGNOSTICS, type PhantomServer } from '../../lib';
import { Gate } from '../support/gate';
import { Held } from './support/held.fixture';
import { Everything, everythingServer } from './support/everything.fixture';
import { connectHttp } from './support/sdk-clients';
import { call, meta, VERSION } from './support/stateless-client';
import { MCP_ACCEPT, post } from './support/raw-http';

describe('FetchHandler', () => {
  context('when mounted in a Hono app on @hono/node-server', () => {
    let server: PhantomServer;
    let http: ServerType;
    let url: string;

    before(async () => {
      server = everythingServer({ diagnostics: SILENT_DIAGNOSTICS, providers: [Everything, Held] });
      const mcp = server.fetchHandler({ maxBodyBytes: 2048 });
      const app = new Hono();
      app.get('/', (c) => c.text('the host app'));
      app.all('/mcp', (c) => mcp(c.req.raw));
      await new Promise<void>((resolve) => { http = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve()); });
      url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
    });
    after(async () => {
      await server.close();
      await new Promise<void>((done) => { http.close(() => done()); });
    });

    it('serves the official client in the session era: tools, a call, progress and an elicitation over SSE', async () => {
      const { client, transport } = await connectHttp(url, { elicitation: { form: {} } });
      client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { name: 'Grace', email: 'grace@example.com', role: 'dev' } }));
      expect((await client.listTools()).tools.map((tool) => tool.name)).to.include.members(['echo', 'steps', 'greet']);
      expect((await client.callTool({ name: 'echo', arguments: { text: 'on hono' } })).content).to.deep.equal([{ type: 'text', text: 'on hono' }]);
      const progress: number[] = [];
      await client.callTool({ name: 'steps' }, undefined, { onprogress: ({ progress: step }) => { progress.push(step); } });
      expect(progress).to.deep.equal([1, 2, 3]);
      expect((await client.callTool({ name: 'greet' })).content).to.deep.equal([{ type: 'text', text: 'Hello Grace (dev)' }]);
      await transport.terminateSession();
      await client.close();
    });

    it('answers a stateless-era call', async () => {
      const reply = await call(url, 'tools/call', { _meta: meta(), name: 'echo', arguments: { text: 'stateless on hono' } });
      expect(reply.status).to.equal(200);
      expect(reply.body.result.content).to.deep.equal([{ type: 'text', text: 'stateless on hono' }]);
    });

    it('streams a stateless-era call with progress as SSE', async () => {
      const reply = await call(url, 'tools/call', { _meta: meta({}, { progressToken: 'p' }), name: 'steps' });
      expect(reply.contentType).to.equal('text/event-stream');
      expect(reply.events.map((event) => event.params?.progress ?? 'response')).to.deep.equal([1, 2, 3, 'response']);
    });

    it('cancels a stateless-era call whose client closes the connection', async () => {
      Held.gate = new Gate();
      const controller = new AbortController();
      const sent = fetch(url, {
        method: 'POST',
        signal: controller.signal,
        headers: { 'content-type': 'application/json', accept: MCP_ACCEPT, 'mcp-protocol-version': VERSION, 'mcp-method': 'tools/call', 'mcp-name': 'held' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'held', _meta: meta() } }),
      });
      await Held.gate.entered;
      controller.abort();
      await sent.catch(() => undefined);
      expect(await Held.gate.aborted).to.equal('the client closed the response stream');
    });

    it('answers a body past maxBodyBytes with 413', async () => {
      const reply = await post(url, { jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(4096) } });
      expect(reply.status).to.equal(413);
      expect(reply.json.error.message).to.equal('Payload Too Large: the body exceeds 2048 bytes');
    });

    it('leaves the rest of the app to Hono', async () => {
      expect(await (await fetch(url.replace('/mcp', '/'))).text()).to.equal('the host app');
    });
  });
});
