import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { eventually } from '../support/eventually';
import { freePort } from '../support/free-port';
import { installedCli, type InstalledCli } from './support/installed-cli';

/** A project's own source, importing the installed package, that says which build it is. */
function source(build: string): string {
  return `import 'reflect-metadata';
import { PhantomServer, Tool } from 'phantom-mcp';

export class BuildTools {
  @Tool({ description: 'Which build runs' })
  build(): string {
    return '${build}';
  }
}

export default new PhantomServer({ name: 'dev-app', version: '1.0.0', providers: [BuildTools] });
`;
}

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022', module: 'commonjs', lib: ['ES2022'], types: [], strict: true, skipLibCheck: true,
    experimentalDecorators: true, emitDecoratorMetadata: true, rootDir: 'src', outDir: 'dist',
  },
  include: ['src'],
};

async function buildServed(url: string): Promise<unknown> {
  const client = new Client({ name: 'cli-spec', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  try {
    return (await client.callTool({ name: 'build', arguments: {} })).content;
  } finally {
    await client.close();
  }
}

/** A project of its own under the CLI's test project, built from `source(build)`. */
function writeApp(project: string, name: string, build: string): void {
  mkdirSync(join(project, name, 'src'), { recursive: true });
  writeFileSync(join(project, name, 'tsconfig.json'), JSON.stringify(TSCONFIG));
  writeFileSync(join(project, name, 'src', 'server.ts'), source(build));
}

/** Whether process `pid` still exists (a zombie counts: its parent has not reaped it). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw error;
  }
}

describe('phantom-mcp dev', () => {
  let cli: InstalledCli;
  before(async function () {
    this.timeout(120_000);
    cli = await installedCli();
  });

  context('when a source file changes', () => {
    it('rebuilds with the project\'s tsc and restarts the server, a line on stderr per restart', async function () {
      this.timeout(90_000);
      const app = join(cli.project, 'dev-app');
      writeApp(cli.project, 'dev-app', 'first');
      const port = await freePort();
      const dev = cli.start(['dev', 'dev-app/dist/server.js', '--project', 'dev-app', '--http', '--port', String(port)]);
      try {
        await dev.waitFor(/phantom-mcp dev: started the server after build 1/, 60_000);
        const [, url] = await dev.waitFor(/dev-app serving MCP at (\S+)/);
        expect(await buildServed(url)).to.deep.equal([{ type: 'text', text: 'first' }]);

        const before = dev.stderr().length;
        writeFileSync(join(app, 'src', 'server.ts'), source('second'));
        await dev.waitFor(/phantom-mcp dev: restarted the server after build 2/, 60_000, before);
        await dev.waitFor(/dev-app serving MCP at \S+/, 20_000, before);
        expect(await buildServed(url)).to.deep.equal([{ type: 'text', text: 'second' }]);
        expect(dev.stderr().match(/phantom-mcp dev: (started|restarted)/g)).to.have.length(2);
      } finally {
        expect(await dev.stop()).to.equal(0);
      }
    });
  });

  context('when it serves over stdio and the client closes stdin', () => {
    /** The processes the spec started, ended after it if it failed (a timeout skips its own code). */
    let started: number[] = [];
    afterEach(() => {
      for (const pid of started) if (alive(pid)) process.kill(pid, 'SIGKILL');
      started = [];
    });

    it('serves the pipe, then ends tsc and the server and exits 0', async function () {
      this.timeout(90_000);
      writeApp(cli.project, 'dev-stdio-app', 'over stdio');
      const dev = spawn(cli.bin, ['dev', 'dev-stdio-app/dist/server.js', '--project', 'dev-stdio-app'], { cwd: cli.project, stdio: ['pipe', 'pipe', 'pipe'] });
      started = [dev.pid!];
      const exited = once(dev, 'exit');
      let stderr = '';
      dev.stderr!.setEncoding('utf8').on('data', (chunk: string) => { stderr += chunk; });
      const answers = new Map<unknown, { result?: { content?: unknown } }>();
      createInterface({ input: dev.stdout! }).on('line', (line) => {
        const message = JSON.parse(line) as { id?: unknown; result?: { content?: unknown } };
        answers.set(message.id, message);
      });
      const send = (message: object) => dev.stdin!.write(`${JSON.stringify(message)}\n`);
      const answer = async (id: number) => {
        await eventually(`the answer to request ${id}; stderr: ${stderr}`, () => answers.has(id), 60_000, 50);
        return answers.get(id)!;
      };
      // Sent before the first build ends: it waits for the server.
      send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'cli-spec', version: '1' } } });
      expect((await answer(1)).result).to.have.property('serverInfo');
      send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'build', arguments: {} } });
      expect((await answer(2)).result?.content).to.deep.equal([{ type: 'text', text: 'over stdio' }]);
      const tsc = Number(/watching with tsc \(pid (\d+)\)/.exec(stderr)?.[1]);
      const server = Number(/started the server after build 1 \(pid (\d+)\)/.exec(stderr)?.[1]);
      started.push(tsc, server);
      expect([alive(tsc), alive(server)]).to.deep.equal([true, true]);

      dev.stdin!.end();
      const [code] = await exited;
      expect(code).to.equal(0);
      expect({ tsc: alive(tsc), server: alive(server) }).to.deep.equal({ tsc: false, server: false });
      expect(stderr).to.include('phantom-mcp dev: stdin ended; stopping tsc and the server');
      started = []; // all gone: their pids may be someone else's from now on
    });
  });
});
