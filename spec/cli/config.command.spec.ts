import { expect } from 'chai';
import { isAbsolute, join, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { installedCli, type InstalledCli } from './support/installed-cli';

interface Entry { type?: string; command: string; args: string[] }

describe('phantom-mcp config', () => {
  let cli: InstalledCli;
  before(async function () {
    this.timeout(120_000);
    cli = await installedCli();
  });

  async function snippet(client: string, ...more: string[]): Promise<Record<string, Record<string, Entry>>> {
    const ran = await cli.run(['config', cli.fixture('weather-server'), '--client', client, ...more]);
    expect(ran.code, ran.stderr).to.equal(0);
    return JSON.parse(ran.stdout);
  }

  function expectRunsTheInstalledBinary(entry: Entry): void {
    expect(isAbsolute(entry.command)).to.equal(true);
    expect(entry.args).to.deep.equal([
      join(cli.project, 'node_modules', 'phantom-mcp', 'dist', 'lib', 'cli', 'main.js'),
      'serve',
      resolve(cli.project, cli.fixture('weather-server')),
    ]);
  }

  context('for Claude Desktop and Cursor', () => {
    it('prints mcpServers with the server\'s name, the command and its arguments', async () => {
      for (const client of ['claude', 'cursor']) {
        const config = await snippet(client);
        expect(Object.keys(config)).to.deep.equal(['mcpServers']);
        expect(Object.keys(config.mcpServers)).to.deep.equal(['weather']);
        expect(config.mcpServers.weather).to.not.have.property('type');
        expectRunsTheInstalledBinary(config.mcpServers.weather);
      }
    });
  });

  context('for VS Code', () => {
    it('prints servers with type stdio, under the name asked for', async () => {
      const config = await snippet('vscode', '--name', 'forecasts');
      expect(Object.keys(config)).to.deep.equal(['servers']);
      expect(config.servers.forecasts).to.include({ type: 'stdio' });
      expectRunsTheInstalledBinary(config.servers.forecasts);
    });

    it('gives a command that serves from any working directory', async () => {
      const { servers } = await snippet('vscode');
      const client = new Client({ name: 'cli-spec', version: '1' });
      await client.connect(new StdioClientTransport({ command: servers.weather.command, args: servers.weather.args, cwd: tmpdir(), stderr: 'pipe' }));
      expect((await client.listTools()).tools.map((tool) => tool.name)).to.include('forecast');
      await client.close();
    });
  });

  context('for Claude Code and Windsurf', () => {
    it('prints mcpServers, with type stdio for Claude Code only', async () => {
      const code = await snippet('claude-code');
      expect(code.mcpServers.weather).to.include({ type: 'stdio' });
      expectRunsTheInstalledBinary(code.mcpServers.weather);
      const windsurf = await snippet('windsurf');
      expect(windsurf.mcpServers.weather).to.not.have.property('type');
      expectRunsTheInstalledBinary(windsurf.mcpServers.weather);
    });
  });

  context('for Codex', () => {
    it('prints the [mcp_servers.<name>] TOML table, and where config.toml is on stderr', async () => {
      const ran = await cli.run(['config', cli.fixture('weather-server'), '--client', 'codex']);
      expect(ran.code, ran.stderr).to.equal(0);
      const [header, command, args, ...rest] = ran.stdout.split('\n');
      expect(header).to.equal('[mcp_servers.weather]');
      // The TOML strings of these paths read as JSON strings.
      expectRunsTheInstalledBinary({ command: JSON.parse(command.replace(/^command = /, '')) as string, args: JSON.parse(args.replace(/^args = /, '')) as string[] });
      expect(rest).to.deep.equal(['']);
      expect(ran.stderr).to.match(/^  user: +\S+\/\.codex\/config\.toml$/m).and.match(/^  project: +\S+\/\.codex\/config\.toml$/m);
    });
  });

  context('when the client is unknown or missing', () => {
    it('exits 2 with the usage', async () => {
      for (const args of [['--client', 'emacs'], []]) {
        const ran = await cli.run(['config', cli.fixture('weather-server'), ...args]);
        expect(ran.code).to.equal(2);
        expect(ran.stderr).to.include('Usage: phantom-mcp config');
      }
    });
  });
});
