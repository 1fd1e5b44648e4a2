import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { installedCli, REPO, type InstalledCli } from './support/installed-cli';

const COMMANDS = ['serve', 'check', 'list', 'call', 'dev', 'config', 'install', 'server-json', 'bundle', 'card'];

describe('phantom-mcp (usage)', function () {
  // One binary per command at once, each loading the framework: on two busy cores that outgrows mocha's 10 s.
  this.timeout(30_000);
  let cli: InstalledCli;
  before(async function () {
    this.timeout(120_000);
    cli = await installedCli();
  });

  context('when run bare, or with an unknown command', () => {
    it('prints the usage on stderr and exits 2', async () => {
      for (const args of [[], ['serv']]) {
        const ran = await cli.run(args);
        expect(ran.code).to.equal(2);
        expect(ran.stdout).to.equal('');
        expect(ran.stderr).to.include('Usage: phantom-mcp <command> <module> [options]');
        for (const command of COMMANDS) expect(ran.stderr).to.match(new RegExp(`^  ${command} `, 'm'));
      }
    });
  });

  context('when a command gets bad arguments', () => {
    it('prints that command\'s usage on stderr and exits 2', async () => {
      const cases: [string[], RegExp][] = [
        [['serve'], /missing <module>/],
        [['serve', 'a.js', 'b.js'], /unexpected argument "b\.js"/],
        [['serve', 'a.js', '--port', 'eighty'], /--port must be a whole number/],
        [['list', 'a.js', '--verbose'], /unknown flag --verbose/],
        [['call', 'a.js'], /missing <tool>/],
        [['dev', 'a.js', '--port'], /--port needs a value/],
      ];
      const runs = await Promise.all(cases.map(([args]) => cli.run(args)));
      for (const [at, [args, message]] of cases.entries()) {
        const ran = runs[at];
        expect(ran.code, args.join(' ')).to.equal(2);
        expect(ran.stderr).to.match(message);
        expect(ran.stderr).to.include(`Usage: phantom-mcp ${args[0]} `);
      }
    });
  });

  context('with --help', () => {
    it('prints the usage on stdout and exits 0, bare and for every command', async () => {
      const bare = await cli.run(['--help']);
      expect(bare).to.include({ code: 0 });
      expect(bare.stdout).to.include('Usage: phantom-mcp <command>');
      const runs = await Promise.all(COMMANDS.map((command) => cli.run([command, '--help'])));
      for (const [at, command] of COMMANDS.entries()) {
        const ran = runs[at];
        expect(ran.code, command).to.equal(0);
        expect(ran.stdout).to.match(new RegExp(`^Usage: phantom-mcp ${command} <module>`));
      }
    });
  });

  context('with --version', () => {
    it('prints the package\'s version', async () => {
      const { version } = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string };
      expect(await cli.run(['--version'])).to.deep.equal({ code: 0, stdout: `${version}\n`, stderr: '' });
    });
  });
});
