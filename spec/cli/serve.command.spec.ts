import { expect } from 'chai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { installedCli, type InstalledCli } from './support/installed-cli';

describe('phantom-mcp serve', () => {
  let cli: InstalledCli;
  before(async function () {
    this.timeout(120_000);
    cli = await installedCli();
  });

  context('when run without --http', () => {
    it('serves the module\'s default export over stdio to the official client', async () => {
      const transport = new StdioClientTransport({ command: cli.bin, args: ['serve', cli.fixture('weather-server')], cwd: cli.project, stderr: 'pipe' });
      const client = new Client({ name: 'cli-spec', version: '1' });
      await client.connect(transport);
      expect(client.getServerVersion()).to.include({ name: 'weather', version: '2.0.0' });
      const result = await client.callTool({ name: 'forecast', arguments: { city: 'Oslo', days: 2 } });
      expect(result.structuredContent).to.deep.equal({ city: 'Oslo', days: 2, sky: 'clear' });
      await client.close();
    });
  });

  context('when run with --http', () => {
    it('serves Streamable HTTP on the port asked for, and exits 0 on SIGTERM', async () => {
      const server = cli.start(['serve', cli.fixture('server-factory'), '--http', '--port', '0', '--host', '127.0.0.1']);
      const [, url] = await server.waitFor(/clock serving MCP at (http:\/\/127\.0\.0\.1:\d+\/mcp)/);
      const client = new Client({ name: 'cli-spec', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      expect(await client.callTool({ name: 'time', arguments: {} })).to.deep.equal({ content: [{ type: 'text', text: '12:00' }] });
      await client.close();
      expect(await server.stop()).to.equal(0);
      expect(server.stderr()).to.include('SIGTERM, finishing the calls in flight');
    });
  });

  context('when the module exports no server', () => {
    it('exits 1 naming what it looked for', async () => {
      const ran = await cli.run(['serve', cli.fixture('no-server')]);
      expect(ran.code).to.equal(1);
      expect(ran.stderr).to.match(/exports no PhantomServer, no function returning one/);
    });
  });
});
