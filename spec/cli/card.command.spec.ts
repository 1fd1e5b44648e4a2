import { expect } from 'chai';
import { installedCli, type InstalledCli } from './support/installed-cli';
import { cardValidator } from '../transport/http/fixtures/server-card-schema';

describe('phantom-mcp card', () => {
  const validate = cardValidator();
  let cli: InstalledCli;
  before(async function () {
    this.timeout(120_000);
    cli = await installedCli();
  });

  it('prints the card of the server at --url, valid against the pinned card schema', async () => {
    const ran = await cli.run(['card', cli.fixture('card-server'), '--url', 'https://mcp.example.com/mcp']);
    expect(ran.code, ran.stderr).to.equal(0);
    const card = JSON.parse(ran.stdout);
    expect(validate(card)).to.deep.equal([]);
    expect(card).to.deep.include({ name: 'io.github.alice/notes', version: '1.4.0', title: 'Notes', description: 'Reads and writes the team notes' });
    expect(card.remotes).to.deep.equal([{ type: 'streamable-http', url: 'https://mcp.example.com/mcp', supportedProtocolVersions: ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26'] }]);
    expect(card).to.not.have.any.keys('tools', 'prompts', 'resources');
  });

  it('names the Authorization header with --oauth, and takes the registry name from --name', async () => {
    const ran = await cli.run(['card', cli.fixture('card-server'), '--url', 'https://mcp.example.com/mcp', '--oauth', '--name', 'com.example/notes']);
    expect(ran.code, ran.stderr).to.equal(0);
    const card = JSON.parse(ran.stdout);
    expect(validate(card)).to.deep.equal([]);
    expect(card.name).to.equal('com.example/notes');
    expect(card.remotes[0].headers).to.have.length(1);
    expect(card.remotes[0].headers[0]).to.include({ name: 'Authorization', isRequired: true, isSecret: true });
  });

  it('exits 1 saying what is missing for a server with no registry name and no description', async () => {
    const ran = await cli.run(['card', cli.fixture('weather-server'), '--url', 'https://mcp.example.com/mcp']);
    expect(ran.code).to.equal(1);
    expect(ran.stdout).to.equal('');
    expect(ran.stderr).to.match(/^phantom-mcp card: No server card: no registry name: the server's name "weather".*; no description.*\n$/);
    expect(ran.stderr.split('\n')).to.have.length(2);
  });

  it('exits 1 in one line for a registry name of the wrong form', async () => {
    const ran = await cli.run(['card', cli.fixture('card-server'), '--url', 'https://mcp.example.com/mcp', '--name', 'notes']);
    expect(ran.code).to.equal(1);
    expect(ran.stderr).to.equal('phantom-mcp card: Server card: serverCard.name "notes" is not of the form namespace/name (reverse-DNS, 3 to 200 characters)\n');
  });

  it('exits 2 with the usage for a --url that is no http(s) URL', async () => {
    const ran = await cli.run(['card', cli.fixture('card-server'), '--url', 'mcp.example.com/mcp']);
    expect(ran.code).to.equal(2);
    expect(ran.stderr).to.match(/--url must be an absolute http\(s\) URL/);
  });

  it('exits 2 with the usage without --url', async () => {
    const ran = await cli.run(['card', cli.fixture('card-server')]);
    expect(ran.code).to.equal(2);
    expect(ran.stderr).to.match(/--url is required/).and.match(/Usage: phantom-mcp card/);
  });
});
