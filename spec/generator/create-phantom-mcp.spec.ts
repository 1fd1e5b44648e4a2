import 'reflect-metadata';
import { expect } from 'chai';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { packedPackage, REPOSITORY, runIn } from '../support/packed-package';

const GENERATOR = join(REPOSITORY, 'packages', 'create-phantom-mcp', 'dist', 'index.js');

function scratch(): string {
  return mkdtempSync(join(tmpdir(), 'create-phantom-'));
}

describe('create-phantom-mcp', function () {
  this.timeout(240_000);

  context('when it is used badly', () => {
    it('prints the usage and exits 2 without a directory, with an unknown option, or a name npm refuses', async () => {
      for (const args of [[], ['a', 'b'], ['dir', '--colour', 'red'], ['dir', '--name'], ['dir', '--name', 'Not Valid']]) {
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

    it('prints the usage on --help and exits 0', async () => {
      const { code, stdout } = await runIn(scratch(), process.execPath, [GENERATOR, '--help']);
      expect(code).to.equal(0);
      expect(stdout).to.include('npm create phantom-mcp@latest');
    });
  });

  context('when it creates a project', () => {
    let project: string;

    before(async () => {
      const tarball = await packedPackage();
      project = join(scratch(), 'my-server');
      mkdirSync(project);
      const made = await runIn(REPOSITORY, process.execPath, [GENERATOR, project, '--phantom', `file:${tarball}`]);
      expect(made.code, made.stderr).to.equal(0);
      const installed = await runIn(project, 'npm', ['install', '--prefer-offline', '--no-audit', '--no-fund'], 180_000);
      expect(installed.code, installed.stderr).to.equal(0);
      const built = await runIn(project, 'npm', ['run', 'build']);
      expect(built.code, built.stdout).to.equal(0);
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
  });
});
