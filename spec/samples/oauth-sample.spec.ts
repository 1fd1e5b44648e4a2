import 'reflect-metadata';
import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { AS_CLIENTS, AuthorizationServerFixture } from '../support/authorization-server.fixture';
import { bearer, connectWithClientCredentials, freePort } from '../integration/support/oauth-http';
import { post } from '../integration/support/raw-http';

const SAMPLE = join(__dirname, '..', '..', 'samples', '07-oauth', 'main.js');

/** Starts the sample with `args`; resolves with its URL once it serves, or its exit code and stderr if it stops first. */
async function start(args: string[]): Promise<{ child: ChildProcess; url?: string; code?: number | null; stderr: string }> {
  const child = spawn(process.execPath, [SAMPLE, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  let code: number | null | undefined;
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => { stderr += chunk; });
  const exited = once(child, 'exit').then(([exitCode]) => { code = exitCode as number | null; });
  while (!/serving MCP at \S+\n/.test(stderr) && code === undefined) await Promise.race([once(child.stderr!, 'data'), exited]);
  return { child, url: /serving MCP at (\S+)/.exec(stderr)?.[1], code, stderr };
}

describe('samples/07-oauth', () => {
  let as: AuthorizationServerFixture;

  before(async () => { as = await AuthorizationServerFixture.start(); });
  after(() => as.close());

  context('when started with --http --port --issuer --audience', () => {
    let child: ChildProcess;
    let url: string;

    before(async () => {
      const port = await freePort();
      const audience = `http://127.0.0.1:${port}/mcp`;
      const started = await start(['--http', '--port', String(port), '--issuer', as.issuer, '--audience', audience]);
      child = started.child;
      url = started.url!;
      expect(url).to.equal(audience);
    });
    after(async () => {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      expect((await exited)[0]).to.equal(0);
    });

    it('serves the official client a token found from the 401: notes_write then notes_read, signed by the caller', async () => {
      const { client } = await connectWithClientCredentials(url, as, 'notes:read notes:write');
      await client.callTool({ name: 'notes_write', arguments: { slug: 'plan', text: 'ship it' } });
      const read = await client.callTool({ name: 'notes_read', arguments: { slug: 'plan' } });
      await client.close();
      expect(read.structuredContent).to.deep.equal({ text: 'ship it', author: AS_CLIENTS.jwt.id });
    });

    it('answers notes_write with a notes:read token with 403 insufficient_scope naming notes:write', async () => {
      const token = await as.token({ resource: url, scope: 'notes:read' });
      const headers = bearer(token);
      const init = await post(url, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }, headers);
      const session = { ...headers, 'mcp-session-id': init.headers.get('mcp-session-id')! };
      await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, session);
      const reply = await post(url, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'notes_write', arguments: { slug: 'x', text: 'y' } } }, session);
      expect(reply.status).to.equal(403);
      expect(reply.headers.get('www-authenticate')).to.match(/error="insufficient_scope", scope="notes:write"$/);
    });
  });

  context('when started without its OAuth settings', () => {
    it('says which flags it needs and exits 2', async () => {
      const { code, stderr } = await start(['--http', '--port', '0']);
      expect(code).to.equal(2);
      expect(stderr).to.include('--issuer URL --audience URL');
    });
  });
});
