import { expect } from 'chai';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
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
      mkdirSync(join(app, 'src'), { recursive: true });
      writeFileSync(join(app, 'tsconfig.json'), JSON.stringify(TSCONFIG));
      writeFileSync(join(app, 'src', 'server.ts'), source('first'));
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
});
