import { expect } from 'chai';
import { installedCli, type InstalledCli } from './support/installed-cli';

describe('phantom-mcp list', () => {
  let cli: InstalledCli;
  before(async function () {
    this.timeout(120_000);
    cli = await installedCli();
  });

  context('without --json', () => {
    it('prints each list with the tools\' arguments summarised', async () => {
      const ran = await cli.run(['list', cli.fixture('weather-server')]);
      expect(ran.code).to.equal(0);
      const lines = ran.stdout.split('\n');
      expect(lines).to.include.members([
        'Tools (4)',
        '  forecast - The forecast for a city',
        '      city: string (required) - Where',
        '      days: integer - How many days ahead',
        '  storm - Always fails',
        '      (no arguments)',
        'Resources (1)',
        '  weather://stations (stations) - Every station [application/json]',
        'Resource templates (1)',
        '  weather://stations/{id} (station) - One station',
        'Prompts (1)',
        '  briefing - A morning briefing',
      ]);
    });
  });

  context('with --json', () => {
    it('prints the lists as the list methods return them', async () => {
      const ran = await cli.run(['list', cli.fixture('weather-server'), '--json']);
      expect(ran.code).to.equal(0);
      const lists = JSON.parse(ran.stdout);
      expect(Object.keys(lists)).to.deep.equal(['tools', 'resources', 'resourceTemplates', 'prompts']);
      expect(lists.tools.map((tool: { name: string }) => tool.name)).to.deep.equal(['forecast', 'shout', 'storm', 'home']);
      expect(lists.tools[0].inputSchema).to.deep.include({ type: 'object', required: ['city'] });
      expect(lists.resources).to.deep.equal([{ uri: 'weather://stations', name: 'stations', description: 'Every station', mimeType: 'application/json' }]);
      expect(lists.resourceTemplates[0]).to.include({ uriTemplate: 'weather://stations/{id}', name: 'station' });
      expect(lists.prompts[0]).to.include({ name: 'briefing', description: 'A morning briefing' });
    });
  });

  context('when the module exports provider classes only', () => {
    it('lists the tools of the exported classes that have some', async () => {
      const lists = JSON.parse((await cli.run(['list', cli.fixture('provider-classes'), '--json'])).stdout);
      expect(lists.tools.map((tool: { name: string }) => tool.name)).to.deep.equal(['echo', 'refuse']);
    });
  });
});
