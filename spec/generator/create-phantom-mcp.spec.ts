import 'reflect-metadata';
import { expect } from 'chai';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { packedPackage, REPOSITORY, runIn } from '../support/packed-package';
import { workingCopy } from './support/working-copy';

const GENERATOR = join(REPOSITORY, 'packages', 'create-phantom-mcp', 'dist', 'index.js');

/** The temporary folders made so far, removed when the specs are done. */
const temporary: string[] = [];

function scratch(): string {
  const folder = mkdtempSync(join(tmpdir(), 'create-phantom-'));
  temporary.push(folder);
  return folder;
}

describe('create-phantom-mcp', function () {
  this.timeout(240_000);

  after(() => {
    for (const folder of temporary.splice(0)) rmSync(folder, { recursive: true, force: true });
  });

  context('when it is used badly', () => {
    it('prints the usage and exits 2 without a directory, with an unknown option, or a name npm refuses', async () => {
      for (const args of [[], ['a', 'b'], ['dir', '--colour', 'red'], ['dir', '--name'], ['dir', '--name', 'Not Valid'], ['dir', '--mcp-name', 'no-slash'], ['dir', '--mcp-name', 'io.github.a/b/c']]) {
        const { code, stderr } = await runIn(scratch(), process.execPath, [GENERATOR, ...args]);
        expect(code, args.join(' ')).to.equal(2);
        expect(stderr).to.include('Usage:');
      }
    });

    it('refuses a directory that is not empty, and writes nothing there', async () => {
      const at = scratch();
      writeFileSync(join(at, 'mine.txt'), 'keep');
      const { code, stderr } = await runIn(at, process.execPath, [GENERATOR, at]);
      expect(code).to.equal(1);
      expect(stderr).to.match(/not empty/);
      expect(existsSync(join(at, 'package.json'))).to.equal(false);
    });

    it('refuses a --phantom path that is no tarball or no built checkout, and writes nothing', async () => {
      const notBuilt = scratch();
      writeFileSync(join(notBuilt, 'package.json'), JSON.stringify({ name: 'phantom-mcp', version: '0.0.0' }));
      const cases: Array<[string, RegExp]> = [
        [join(scratch(), 'missing.tgz'), /does not exist/],
        [join(REPOSITORY, 'package.json'), /neither a phantom-mcp checkout nor a \.tgz/],
        [scratch(), /no phantom-mcp checkout/],
        [notBuilt, /not built: run npm run build/],
      ];
      for (const [phantom, reason] of cases) {
        const at = join(scratch(), 'my-server');
        const { code, stderr } = await runIn(REPOSITORY, process.execPath, [GENERATOR, at, '--phantom', phantom]);
        expect(code, phantom).to.equal(1);
        expect(stderr, phantom).to.match(reason);
        expect(existsSync(at), phantom).to.equal(false);
      }
    });

    it('prints the usage on --help and exits 0, naming both ways to get phantom-mcp and the registry name', async () => {
      const { code, stdout } = await runIn(scratch(), process.execPath, [GENERATOR, '--help']);
      expect(code).to.equal(0);
      expect(stdout).to.include('npm create phantom-mcp@latest');
      expect(stdout).to.include('npm run create -- <directory>');
      expect(stdout).to.match(/--phantom\s+the phantom-mcp the project depends on/);
      expect(stdout).to.match(/--mcp-name\s+the project's name on the MCP registry/);
    });
  });

  context('when it is given --mcp-name', () => {
    it("writes it to package.json as mcpName, next to the package's name", async () => {
      const project = join(scratch(), 'weather');
      const made = await runIn(REPOSITORY, process.execPath, [GENERATOR, project, '--mcp-name', 'io.github.ada/weather']);
      expect(made.code, made.stderr).to.equal(0);
      const manifest = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8'));
      expect(Object.keys(manifest).slice(0, 2)).to.deep.equal(['name', 'mcpName']);
      expect(manifest.mcpName).to.equal('io.github.ada/weather');
    });

    it('writes no mcpName without it: the registry name is the author\'s to choose', async () => {
      const project = join(scratch(), 'weather');
      const made = await runIn(REPOSITORY, process.execPath, [GENERATOR, project]);
      expect(made.code, made.stderr).to.equal(0);
      expect(JSON.parse(readFileSync(join(project, 'package.json'), 'utf8'))).not.to.have.property('mcpName');
    });
  });

  context('when it writes package.json', () => {
    it("gives the project phantom-mcp's own engines, as the generator's package has them", async () => {
      const project = join(scratch(), 'weather');
      const made = await runIn(REPOSITORY, process.execPath, [GENERATOR, project]);
      expect(made.code, made.stderr).to.equal(0);
      const engines = (file: string) => JSON.parse(readFileSync(file, 'utf8')).engines;
      const phantom = engines(join(REPOSITORY, 'package.json'));
      expect(phantom).to.have.property('node').that.is.a('string');
      expect(engines(join(project, 'package.json'))).to.deep.equal(phantom);
      expect(engines(join(REPOSITORY, 'packages', 'create-phantom-mcp', 'package.json'))).to.deep.equal(phantom);
    });
  });

  context('when it is given a tarball npm pack made', () => {
    it('copies it into vendor/ and depends on it there, so the project does not need the tarball it was given', async () => {
      const tarball = await packedPackage();
      const project = join(scratch(), 'my-server');
      const made = await runIn(REPOSITORY, process.execPath, [GENERATOR, project, '--phantom', `file:${tarball}`]);
      expect(made.code, made.stderr).to.equal(0);
      const vendored = readdirSync(join(project, 'vendor'));
      expect(vendored).to.deep.equal([tarball.split(/[\\/]/).pop()]);
      expect(readFileSync(join(project, 'vendor', vendored[0]))).to.deep.equal(readFileSync(tarball));
      expect(JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')).dependencies['phantom-mcp']).to.equal(`file:vendor/${vendored[0]}`);
    });
  });

  context('when `npm run create` makes a project from a clone of phantom-mcp', () => {
    let project: string;

    before(async function () {
      this.timeout(600_000);
      const clone = await workingCopy();
      temporary.push(dirname(clone));
      project = join(scratch(), 'my-server');
      const made = await runIn(clone, 'npm', ['run', 'create', '--', project], 300_000);
      expect(made.code, `${made.stdout}\n${made.stderr}`).to.equal(0);
      const installed = await runIn(project, 'npm', ['install', '--prefer-offline', '--no-audit', '--no-fund'], 180_000);
      expect(installed.code, installed.stderr).to.equal(0);
      const built = await runIn(project, 'npm', ['run', 'build']);
      expect(built.code, built.stdout).to.equal(0);
    });

    it('installs the phantom-mcp packed from the clone, kept in vendor/, not one from the registry', () => {
      const manifest = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8'));
      expect(manifest.dependencies['phantom-mcp']).to.match(/^file:vendor\/phantom-mcp-[\d.]+\.tgz$/);
      const lock = JSON.parse(readFileSync(join(project, 'package-lock.json'), 'utf8'));
      expect(lock.packages['node_modules/phantom-mcp'].resolved).to.equal(manifest.dependencies['phantom-mcp']);
      expect(existsSync(join(project, 'node_modules', 'phantom-mcp', 'dist', 'lib', 'index.js'))).to.equal(true);
    });

    it('names the project after its directory, with the TypeScript settings decorators need and the dot files', () => {
      const manifest = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8'));
      expect(manifest.name).to.equal('my-server');
      const tsconfig = JSON.parse(readFileSync(join(project, 'tsconfig.json'), 'utf8'));
      expect(tsconfig.compilerOptions).to.include({ experimentalDecorators: true, emitDecoratorMetadata: true });
      expect(existsSync(join(project, '.gitignore'))).to.equal(true);
      expect(existsSync(join(project, '.mocharc.json'))).to.equal(true);
    });

    it('passes its own npm test at once: tsc builds it, and its spec uses phantom-mcp/testing', async () => {
      const { code, stdout, stderr } = await runIn(project, 'npm', ['test'], 180_000);
      expect(code, `${stdout}\n${stderr}`).to.equal(0);
      expect(stdout).to.match(/2 passing/);
    });

    it('serves its tool and resource over stdio once built, to the official client', async () => {
      const client = new Client({ name: 'generator-spec', version: '1' });
      await client.connect(new StdioClientTransport({ command: process.execPath, args: [join(project, 'dist', 'src', 'main.js')], cwd: project, stderr: 'pipe' }));
      try {
        const { tools } = await client.listTools();
        expect(tools.map((tool) => tool.name)).to.deep.equal(['greet']);
        const greeted = await client.callTool({ name: 'greet', arguments: { name: 'Ada' } });
        expect(greeted.content).to.deep.equal([{ type: 'text', text: 'Hello, Ada!' }]);
        const stats = await client.readResource({ uri: 'greeter://stats' });
        expect(JSON.parse((stats.contents[0] as { text: string }).text)).to.deep.equal({ greetings: 1 });
      } finally {
        await client.close();
      }
    });

    it('writes its registry server.json, checks it for drift and builds its desktop bundle with its own npm scripts', async () => {
      const claimed = await runIn(project, 'npm', ['pkg', 'set', 'mcpName=io.github.ada/my-server', 'author=Ada Lovelace']);
      expect(claimed.code, claimed.stderr).to.equal(0);
      const written = await runIn(project, 'npm', ['run', 'server-json'], 180_000);
      expect(written.code, `${written.stdout}\n${written.stderr}`).to.equal(0);
      const document = JSON.parse(readFileSync(join(project, 'server.json'), 'utf8'));
      expect(document).to.include({ name: 'io.github.ada/my-server', version: '0.1.0' });
      expect(document.packages[0]).to.include({ registryType: 'npm', identifier: 'my-server' });
      const upToDate = await runIn(project, 'npm', ['run', 'drift'], 180_000);
      expect(upToDate.code, `${upToDate.stdout}\n${upToDate.stderr}`).to.equal(0);
      await runIn(project, 'npm', ['pkg', 'set', 'version=0.2.0']);
      const drifted = await runIn(project, 'npm', ['run', 'drift'], 180_000);
      await runIn(project, 'npm', ['pkg', 'set', 'version=0.1.0']);
      expect(drifted.code).not.to.equal(0);
      const bundled = await runIn(project, 'npm', ['run', 'bundle'], 180_000);
      expect(bundled.code, `${bundled.stdout}\n${bundled.stderr}`).to.equal(0);
      expect(existsSync(join(project, 'my-server-0.1.0.mcpb'))).to.equal(true);
    });

    it('builds from an empty dist/: a spec deleted since the last build no longer runs', async () => {
      const extra = join(project, 'spec', 'extra.spec.ts');
      writeFileSync(extra, "import { expect } from 'chai';\n\ndescribe('extra', () => {\n  it('runs while it exists', () => expect(1).to.equal(1));\n});\n");
      const withExtra = await runIn(project, 'npm', ['test'], 180_000);
      expect(withExtra.code, withExtra.stdout).to.equal(0);
      expect(withExtra.stdout).to.match(/3 passing/);
      rmSync(extra);
      const without = await runIn(project, 'npm', ['test'], 180_000);
      expect(without.code, without.stdout).to.equal(0);
      expect(without.stdout).to.match(/2 passing/);
      expect(existsSync(join(project, 'dist', 'spec', 'extra.spec.js'))).to.equal(false);
    });
  });
});
