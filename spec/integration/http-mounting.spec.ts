import 'reflect-metadata';
import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SILENT_DIAGNOSTICS } from '../../lib';
import { everythingServer } from './support/everything.fixture';
import { connectHttp } from './support/sdk-clients';
import { INITIALIZE, openSession, post, send } from './support/raw-http';

describe('StreamableHttpHandler mounted in a host server', () => {
  const server = everythingServer({ diagnostics: SILENT_DIAGNOSTICS, sessionIdleMs: 100 });
  const handler = server.httpHandler({ allowedHosts: ['mcp.example.com', '127.0.0.1'], enableGetStream: false });
  let http: Server;
  let url: string;

  before(async () => {
    // Any path, any host framework: the handler only needs (req, res).
    http = createServer((req, res) => {
      if (req.url?.startsWith('/api/v1/mcp')) void handler.handle(req, res);
      else { res.writeHead(404); res.end(); }
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/api/v1/mcp`;
  });

  after(async () => {
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
    await server.close();
  });

  it('serves the official client at its own path', async () => {
    const { client } = await connectHttp(url);
    expect((await client.callTool({ name: 'echo', arguments: { text: 'mounted' } })).content).to.deep.equal([{ type: 'text', text: 'mounted' }]);
    await client.close();
  });

  it('accepts the public host name a reverse proxy forwards', async () => {
    expect((await post(url, INITIALIZE, { host: 'mcp.example.com' })).status).to.equal(200);
  });

  it('answers GET with 405 when the standalone stream is disabled', async () => {
    const session = await openSession(url);
    const reply = await send(url, 'GET', { accept: 'text/event-stream', 'mcp-session-id': session });
    expect(reply.status).to.equal(405);
  });

  it('expires idle sessions: 404 afterwards', async () => {
    const session = await openSession(url);
    await new Promise((r) => setTimeout(r, 250));
    expect((await post(url, { jsonrpc: '2.0', id: 1, method: 'ping' }, { 'mcp-session-id': session })).status).to.equal(404);
  });
});
