import { expect } from 'chai';
import { installedCli, type InstalledCli } from './support/installed-cli';

describe('phantom-mcp call', () => {
  let cli: InstalledCli;
  before(async function () {
    this.timeout(120_000);
    cli = await installedCli();
  });

  context('when the tool returns structured content', () => {
    it('prints it as JSON, from the arguments given', async () => {
      const ran = await cli.run(['call', cli.fixture('weather-server'), 'forecast', '--args', '{"city":"Oslo","days":3}']);
      expect(ran.code).to.equal(0);
      expect(JSON.parse(ran.stdout)).to.deep.equal({ city: 'Oslo', days: 3, sky: 'clear' });
    });
  });

  context('when the tool returns text and logs', () => {
    it('prints the text on stdout and the log line on stderr', async () => {
      const ran = await cli.run(['call', cli.fixture('weather-server'), 'shout']);
      expect(ran).to.include({ code: 0, stdout: 'CLEAR SKIES\n' });
      expect(ran.stderr).to.include('[info] shouting');
    });
  });

  context('when the module exports provider classes or a factory', () => {
    it('calls the tool of the server built from them', async () => {
      expect((await cli.run(['call', cli.fixture('provider-classes'), 'echo', '--args={"text":"hi"}'])).stdout).to.equal('hi\n');
      expect((await cli.run(['call', cli.fixture('server-factory'), 'time'])).stdout).to.equal('12:00\n');
    });
  });

  context('when a server built from provider classes runs a tool that throws a ToolError', () => {
    it('builds it with the framework the module imports, so the error is a tool result', async () => {
      const ran = await cli.run(['call', cli.fixture('provider-classes'), 'refuse', '--json']);
      expect(ran.code).to.equal(1);
      expect(JSON.parse(ran.stderr)).to.deep.equal({ content: [{ type: 'text', text: 'no echo today' }], isError: true });
    });
  });

  context('when the result is an error', () => {
    it('prints it and exits 1', async () => {
      const ran = await cli.run(['call', cli.fixture('weather-server'), 'storm']);
      expect(ran.code).to.equal(1);
      expect(ran.stderr).to.include('the storm took the station');
    });
  });

  context('when the arguments are invalid or the tool unknown', () => {
    it('exits 1 with the JSON-RPC error', async () => {
      const invalid = await cli.run(['call', cli.fixture('weather-server'), 'forecast', '--args', '{"days":3}']);
      expect(invalid.code).to.equal(1);
      expect(invalid.stderr).to.match(/city/);
      const unknown = await cli.run(['call', cli.fixture('weather-server'), 'hail']);
      expect(unknown.code).to.equal(1);
      expect(unknown.stderr).to.match(/hail: JSON-RPC error -32602/);
    });
  });

  context('when the tool elicits', () => {
    it('says the CLI cannot answer and exits 1', async () => {
      const ran = await cli.run(['call', cli.fixture('weather-server'), 'home']);
      expect(ran.code).to.equal(1);
      expect(ran.stderr).to.include('home asked the user for input (elicitation/create: "Which city do you live in?"); phantom-mcp call cannot answer that');
    });
  });

  context('when the tool reports progress', () => {
    it('prints each report on stderr, a line each, and only the result on stdout', async () => {
      const ran = await cli.run(['call', cli.fixture('survey-server'), 'survey']);
      expect(ran).to.include({ code: 0, stdout: '3 stations\n' });
      expect(ran.stderr.split('\n').filter((line) => line.startsWith('[progress]'))).to.deep.equal([
        String.raw`[progress] 1/3 "reading \"north\" stations"`,
        String.raw`[progress] 2/3 "line one\nline two"`,
        '[progress] 3',
      ]);
    });
  });

  context('when the elicitation\'s message holds quotes, a backslash and a line break', () => {
    it('quotes it by JSON rules, on one line', async () => {
      const ran = await cli.run(['call', cli.fixture('survey-server'), 'close']);
      expect(ran.code).to.equal(1);
      const said = String.raw`close asked the user for input (elicitation/create: "Close ISS-1 \"Seed issue\"?\nFiled under C:\\issues"); phantom-mcp call cannot answer that`;
      expect(ran.stderr.split('\n').filter((line) => line.startsWith('close asked'))).to.have.length(1);
      expect(ran.stderr).to.include(said);
    });
  });

  context('when --args is not a JSON object', () => {
    it('exits 2 with the usage', async () => {
      for (const args of ['not json', '[1]']) {
        const ran = await cli.run(['call', cli.fixture('weather-server'), 'forecast', '--args', args]);
        expect(ran.code).to.equal(2);
        expect(ran.stderr).to.include('Usage: phantom-mcp call');
      }
    });
  });
});
