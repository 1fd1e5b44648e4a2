import { expect } from 'chai';
import { installedCli, type InstalledCli } from './support/installed-cli';

describe('phantom-mcp check', () => {
  let cli: InstalledCli;
  before(async function () {
    this.timeout(120_000);
    cli = await installedCli();
  });

  context('when the definitions have problems', () => {
    it('prints every problem and exits 1', async () => {
      const ran = await cli.run(['check', cli.fixture('broken-providers')]);
      expect(ran.code).to.equal(1);
      expect(ran.stderr).to.include('2 problems');
      expect(ran.stderr).to.include('duplicate tool name "lookup": FirstTools#lookup, SecondTools#lookup');
      expect(ran.stderr).to.include('SecondTools#item: lister method "missingMethod" does not exist on the class');
    });
  });

  context('when the definitions are sound', () => {
    it('prints a one-line summary and exits 0', async () => {
      const ran = await cli.run(['check', cli.fixture('weather-server')]);
      expect(ran.code).to.equal(0);
      expect(ran.stdout).to.equal('weather 2.0.0: no problems (4 tools, 1 resources, 1 resource templates, 1 prompts)\n');
    });
  });

  context('when the module exports provider classes only', () => {
    it('names the server after the file, with the version of the nearest package.json', async () => {
      const ran = await cli.run(['check', cli.fixture('provider-classes')]);
      expect(ran.code).to.equal(0);
      expect(ran.stdout).to.match(/^provider-classes \d+\.\d+\.\d+: no problems \(2 tools,/);
    });
  });

  context('when the module does not exist', () => {
    it('exits 1 saying so', async () => {
      const ran = await cli.run(['check', 'no-such-module.js']);
      expect(ran.code).to.equal(1);
      expect(ran.stderr).to.match(/no-such-module\.js: no such file/);
    });
  });
});
