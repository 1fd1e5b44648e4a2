import { expect } from 'chai';
import { dirname, join, relative } from 'node:path';
import { installedCli, REPO, type InstalledCli } from './support/installed-cli';

/** Every command that takes a module, with what else it needs to get as far as loading it. */
const COMMANDS: Readonly<Record<string, (module: string) => string[]>> = {
  serve: (module) => ['serve', module],
  list: (module) => ['list', module],
  call: (module) => ['call', module, 'forecast'],
  check: (module) => ['check', module],
  config: (module) => ['config', module, '--client', 'claude'],
  dev: (module) => ['dev', module],
};

/** What each command told on stderr, given `module`: each must fail with one line naming it. */
async function refusals(cli: InstalledCli, module: string, commands: readonly string[]): Promise<void> {
  const runs = await Promise.all(commands.map((command) => cli.run(COMMANDS[command](module))));
  for (const [at, command] of commands.entries()) {
    const ran = runs[at];
    expect(ran.code, `${command}: ${ran.stderr}`).to.equal(1);
    expect(ran.stdout, command).to.equal('');
    expect(ran.stderr, command).to.match(new RegExp(`^phantom-mcp ${command}: [^\\n]+\\n$`));
  }
}

describe('modulePath (a command given something other than a compiled server module)', () => {
  let cli: InstalledCli;
  before(async function () {
    this.timeout(120_000);
    cli = await installedCli();
  });

  context('when the path does not exist', () => {
    it('exits 1 with one line saying so and what was expected (dev waits for its build)', async function () {
      this.timeout(60_000); // several commands, each a node process
      await refusals(cli, 'dist/missing.js', ['serve', 'list', 'call', 'check', 'config']);
      const ran = await cli.run(['list', 'dist/missing.js']);
      expect(ran.stderr).to.equal(`phantom-mcp list: ${join(cli.project, 'dist', 'missing.js')}: no such file; expected a compiled module (a .js file built with tsc) that exports a PhantomServer, a function returning one, or provider classes\n`);
    });
  });

  context('when the path is a directory', () => {
    it('exits 1 with one line saying so and what was expected, from every command', async function () {
      this.timeout(60_000); // several commands, each a node process
      const directory = dirname(cli.fixture('weather-server'));
      await refusals(cli, directory, Object.keys(COMMANDS));
      const ran = await cli.run(['serve', directory]);
      expect(ran.stderr).to.include(' is a directory; expected a compiled module (a .js file built with tsc)');
      expect(ran.stderr).not.to.include('Cannot find module');
    });
  });

  context('when the path is TypeScript source', () => {
    it('exits 1 with one line asking for the compiled .js, from every command', async function () {
      this.timeout(60_000); // several commands, each a node process
      const source = relative(cli.project, join(REPO, 'spec', 'cli', 'fixtures', 'weather-server.ts'));
      await refusals(cli, source, Object.keys(COMMANDS));
      expect((await cli.run(['check', source])).stderr).to.include('weather-server.ts: point at the compiled .js, built with tsc');
    });
  });

  context('when the path is a declaration file', () => {
    it('exits 1 with one line asking for the .js beside it, from every command', async function () {
      this.timeout(60_000); // several commands, each a node process
      const declarations = cli.fixture('weather-server').replace(/\.js$/, '.d.ts');
      await refusals(cli, declarations, Object.keys(COMMANDS));
      expect((await cli.run(['call', declarations, 'forecast'])).stderr).to.include('weather-server.d.ts is a TypeScript declaration file, which holds no code; expected a compiled module');
    });
  });

  context('when the module exports no server', () => {
    it('exits 1 with one line naming what it looked for (dev serves only after its build)', async function () {
      this.timeout(60_000); // several commands, each a node process
      await refusals(cli, cli.fixture('no-server'), ['serve', 'list', 'call', 'check', 'config']);
      expect((await cli.run(['config', cli.fixture('no-server'), '--client', 'vscode'])).stderr).to.match(/no-server\.js exports no PhantomServer, no function returning one/);
    });
  });
});
