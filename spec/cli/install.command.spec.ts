import { expect } from 'chai';
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { installedCli, type InstalledCli, type Ran } from './support/installed-cli';

interface Stdio { type?: string; command: string; args: string[]; env?: Record<string, string> }
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A JSON client: the flags that pick a file in the temporary home or project, the file, and the key it keeps servers under. */
interface JsonCase {
  readonly label: string;
  readonly flags: (home: string) => string[];
  readonly file: (home: string, project: string) => string;
  readonly key: string;
  readonly stdioType: boolean;
}

const JSON_CASES: readonly JsonCase[] = [
  // Claude Desktop has no Linux build, so no file of its own here: given one.
  { label: 'claude (--file)', flags: (home) => ['--client', 'claude', '--file', join(home, 'Claude', 'claude_desktop_config.json')], file: (home) => join(home, 'Claude', 'claude_desktop_config.json'), key: 'mcpServers', stdioType: false },
  { label: 'claude-code (user)', flags: () => ['--client', 'claude-code'], file: (home) => join(home, '.claude.json'), key: 'mcpServers', stdioType: true },
  { label: 'claude-code (project)', flags: () => ['--client', 'claude-code', '--scope', 'project'], file: (_home, project) => join(project, '.mcp.json'), key: 'mcpServers', stdioType: true },
  { label: 'cursor (user)', flags: () => ['--client', 'cursor'], file: (home) => join(home, '.cursor', 'mcp.json'), key: 'mcpServers', stdioType: false },
  { label: 'cursor (project)', flags: () => ['--client', 'cursor', '--scope', 'project'], file: (_home, project) => join(project, '.cursor', 'mcp.json'), key: 'mcpServers', stdioType: false },
  { label: 'vscode (user)', flags: () => ['--client', 'vscode'], file: (home) => join(home, '.config', 'Code', 'User', 'mcp.json'), key: 'servers', stdioType: true },
  { label: 'vscode (project)', flags: () => ['--client', 'vscode', '--scope', 'project'], file: (_home, project) => join(project, '.vscode', 'mcp.json'), key: 'servers', stdioType: true },
  { label: 'windsurf', flags: () => ['--client', 'windsurf'], file: (home) => join(home, '.codeium', 'windsurf', 'mcp_config.json'), key: 'mcpServers', stdioType: false },
];

/** A configuration someone already has: another server, other keys, 4-space indentation. */
function existing(key: string): Json {
  return { theme: 'dark', [key]: { other: { command: 'other-server', args: ['--flag'], env: { TOKEN: '${env:TOKEN}' } } }, history: [1, 2, { deep: true }] };
}

const OLD_CODEX = `# my Codex settings
model = "gpt-5"

[mcp_servers.other]
command = "other-server"
args = [
  "--flag", # a comment inside the array
]

[mcp_servers.other.env]
TOKEN = "kept"

[profiles.fast]
model = "gpt-5-mini"
`;

describe('phantom-mcp install', function () {
  this.timeout(60_000);
  let cli: InstalledCli;
  let home: string;
  let project: string;
  let env: NodeJS.ProcessEnv;

  before(async function () {
    this.timeout(120_000);
    cli = await installedCli();
  });

  beforeEach(() => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'phantom-install-')));
    home = join(root, 'home');
    project = join(root, 'project');
    mkdirSync(home);
    mkdirSync(project);
    // Nothing of the real user's: every per-user file resolves under the temporary home.
    env = { ...process.env, HOME: home, WEATHER_API_KEY: 's3cret-value-123', WEATHER_STATION: 'station-from-the-shell' };
    for (const name of ['XDG_CONFIG_HOME', 'CODEX_HOME', 'APPDATA', 'USERPROFILE']) delete env[name];
  });

  const module = (name: string) => resolve(cli.project, cli.fixture(name));
  const install = (fixture: string, ...args: string[]): Promise<Ran> => cli.run(['install', module(fixture), ...args], { cwd: project, env });

  function seed(file: string, text: string): void {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
  }

  function backupsOf(file: string): string[] {
    return readdirSync(dirname(file)).filter((name) => name.startsWith(`${basename(file)}.`) && name.endsWith('.bak')).sort();
  }

  function expectServes(entry: Stdio): Promise<void> {
    return listsTools(entry.command, entry.args, entry.env);
  }

  async function listsTools(command: string, args: string[], extra?: Record<string, string>): Promise<void> {
    const client = new Client({ name: 'install-spec', version: '1' });
    await client.connect(new StdioClientTransport({ command, args, cwd: tmpdir(), stderr: 'pipe', ...(extra ? { env: extra } : {}) }));
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).to.include('forecast');
    } finally {
      await client.close();
    }
  }

  for (const target of JSON_CASES) {
    context(`for ${target.label}`, () => {
      it('adds the server to the file, keeps every other key and server, backs the old file up byte for byte, and its entry starts the server', async () => {
        const file = target.file(home, project);
        const old = `${JSON.stringify(existing(target.key), null, 4)}\n`;
        seed(file, old);
        const ran = await install('weather-server', ...target.flags(home));
        expect(ran.code, ran.stderr).to.equal(0);
        const written = JSON.parse(readFileSync(file, 'utf8')) as Json;
        const { [target.key]: servers, ...others } = written;
        const { [target.key]: oldServers, ...oldOthers } = existing(target.key);
        expect(others).to.deep.equal(oldOthers);
        expect(Object.keys(servers)).to.deep.equal(['other', 'weather']);
        expect(servers.other).to.deep.equal(oldServers.other);
        expect(servers.weather.type).to.equal(target.stdioType ? 'stdio' : undefined);
        expect(servers.weather.args.slice(1)).to.deep.equal(['serve', module('weather-server')]);
        expect(readFileSync(file, 'utf8')).to.match(/^ {4}"theme"/m);
        expect(readFileSync(`${file}.bak`, 'utf8')).to.equal(old);
        expect(ran.stdout).to.include(`"weather" added to ${file}`).and.include(`Backup of the old file: ${file}.bak`);
        // What the client runs, exactly as written, from another working directory.
        await expectServes(servers.weather as Stdio);
      });
    });
  }

  context('when installed a second time', () => {
    it('makes a second, timestamped backup and keeps the first', async () => {
      const file = join(home, '.cursor', 'mcp.json');
      const old = `${JSON.stringify(existing('mcpServers'), null, 2)}\n`;
      seed(file, old);
      expect((await install('weather-server', '--client', 'cursor')).code).to.equal(0);
      const first = readFileSync(file, 'utf8');
      const again = await install('weather-server', '--client', 'cursor', '--name', 'forecasts');
      expect(again.code, again.stderr).to.equal(0);
      const backups = backupsOf(file);
      expect(backups).to.have.length(2);
      expect(readFileSync(`${file}.bak`, 'utf8')).to.equal(old);
      const stamped = backups.find((name) => name !== 'mcp.json.bak')!;
      expect(stamped).to.match(/^mcp\.json\.\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}Z\.bak$/);
      expect(readFileSync(join(dirname(file), stamped), 'utf8')).to.equal(first);
      expect(again.stdout).to.include(`Backup of the old file: ${join(dirname(file), stamped)}`);
      expect(Object.keys((JSON.parse(readFileSync(file, 'utf8')) as Json).mcpServers)).to.deep.equal(['other', 'weather', 'forecasts']);
    });

    it('writes nothing, and backs nothing up, when the file already holds the same entry', async () => {
      const file = join(home, '.cursor', 'mcp.json');
      expect((await install('weather-server', '--client', 'cursor')).code).to.equal(0);
      const first = readFileSync(file, 'utf8');
      const again = await install('weather-server', '--client', 'cursor');
      expect(again.code).to.equal(0);
      expect(again.stdout).to.include('nothing changed');
      expect(readFileSync(file, 'utf8')).to.equal(first);
      expect(backupsOf(file)).to.deep.equal([]);
    });
  });

  context('with --dry-run', () => {
    it('prints the file as it would be written and leaves the file byte-equal, with no backup', async () => {
      const file = join(project, '.vscode', 'mcp.json');
      const old = `${JSON.stringify(existing('servers'), null, '\t')}\n`;
      seed(file, old);
      const ran = await install('weather-server', '--client', 'vscode', '--scope', 'project', '--dry-run');
      expect(ran.code, ran.stderr).to.equal(0);
      expect(ran.stderr).to.include('Dry run, nothing written');
      expect(Object.keys((JSON.parse(ran.stdout) as Json).servers)).to.deep.equal(['other', 'weather']);
      expect(readFileSync(file, 'utf8')).to.equal(old);
      expect(backupsOf(file)).to.deep.equal([]);
    });

    it('creates nothing when there is no file', async () => {
      const ran = await install('weather-server', '--client', 'cursor', '--dry-run');
      expect(ran.code, ran.stderr).to.equal(0);
      expect(existsSync(join(home, '.cursor'))).to.equal(false);
    });
  });

  context('when the file is not plain JSON', () => {
    const cases: [string, string, RegExp][] = [
      ['comments', '{\n  // my servers\n  "servers": {}\n}\n', /has comments, which JSON cannot hold/],
      ['trailing commas', '{\n  "servers": {},\n}\n', /has trailing commas/],
      ['broken JSON', '{ "servers": ', /is not valid JSON/],
      ['an array', '[]\n', /does not hold a JSON object/],
      ['servers that are not an object', '{ "servers": [] }\n', /"servers" is not an object/],
      ['an integer JSON.parse would round', '{ "servers": {}, "id": 12345678901234567890 }\n', /holds the number 12345678901234567890/],
    ];
    for (const [what, text, message] of cases) {
      it(`refuses it (${what}), changes nothing and makes no backup`, async () => {
        const file = join(project, '.vscode', 'mcp.json');
        seed(file, text);
        const ran = await install('weather-server', '--client', 'vscode', '--scope', 'project');
        expect(ran.code).to.equal(1);
        expect(ran.stderr).to.match(message);
        expect(readFileSync(file, 'utf8')).to.equal(text);
        expect(backupsOf(file)).to.deep.equal([]);
      });
    }

    it('reads // inside strings as text, not as a comment', async () => {
      const file = join(home, '.cursor', 'mcp.json');
      seed(file, '{ "mcpServers": { "remote": { "url": "https://example.com/mcp" } } }\n');
      const ran = await install('weather-server', '--client', 'cursor');
      expect(ran.code, ran.stderr).to.equal(0);
      expect((JSON.parse(readFileSync(file, 'utf8')) as Json).mcpServers.remote).to.deep.equal({ url: 'https://example.com/mcp' });
    });
  });

  context('when the server declares environment variables', () => {
    const shapes: [string, string[], (home: string, project: string) => string, (entry: Json, file: Json) => void][] = [
      ['vscode', ['--client', 'vscode'], (h) => join(h, '.config', 'Code', 'User', 'mcp.json'), (entry, file) => {
        expect(entry.env).to.deep.equal({ WEATHER_API_KEY: '${input:keyed-weather-WEATHER_API_KEY}', WEATHER_UNITS: 'metric', WEATHER_STATION: '${input:keyed-weather-WEATHER_STATION}' });
        expect(file.inputs).to.deep.equal([
          { type: 'promptString', id: 'keyed-weather-WEATHER_API_KEY', description: 'The weather API key', password: true },
          { type: 'promptString', id: 'keyed-weather-WEATHER_STATION', description: 'The home station', password: false },
        ]);
      }],
      ['claude-code', ['--client', 'claude-code'], (h) => join(h, '.claude.json'), (entry) => {
        expect(entry.env).to.deep.equal({ WEATHER_API_KEY: '${WEATHER_API_KEY}', WEATHER_UNITS: 'metric', WEATHER_STATION: '${WEATHER_STATION}' });
      }],
      ['cursor', ['--client', 'cursor'], (h) => join(h, '.cursor', 'mcp.json'), (entry) => {
        expect(entry.env).to.deep.equal({ WEATHER_API_KEY: '${env:WEATHER_API_KEY}', WEATHER_UNITS: 'metric', WEATHER_STATION: '${env:WEATHER_STATION}' });
      }],
      ['windsurf', ['--client', 'windsurf'], (h) => join(h, '.codeium', 'windsurf', 'mcp_config.json'), (entry) => {
        expect(entry.env).to.deep.equal({ WEATHER_API_KEY: '${env:WEATHER_API_KEY}', WEATHER_UNITS: 'metric', WEATHER_STATION: '${env:WEATHER_STATION}' });
      }],
      ['claude', ['--client', 'claude', '--file', 'claude.json'], (_h, p) => join(p, 'claude.json'), (entry) => {
        expect(entry.env).to.deep.equal({ WEATHER_UNITS: 'metric' });
      }],
    ];
    for (const [client, flags, fileOf, expectEntry] of shapes) {
      it(`writes ${client} defaults as values and asks the client for the rest, never writing a value from the environment`, async () => {
        const ran = await install('keyed-weather-server', ...flags);
        expect(ran.code, ran.stderr).to.equal(0);
        const text = readFileSync(fileOf(home, project), 'utf8');
        expect(text).to.not.include('s3cret-value-123').and.not.include('station-from-the-shell');
        const file = JSON.parse(text) as Json;
        const entry = (file.servers ?? file.mcpServers)['keyed-weather'];
        expectEntry(entry, file);
        expect(ran.stderr).to.match(/WEATHER_DEBUG \(optional: Log every request\) is left out/);
        expect(ran.stderr).to.include('WEATHER_API_KEY').and.include('WEATHER_STATION');
      });
    }

    it('says what Claude Desktop cannot be given, and that the secret would sit in a plain file', async () => {
      const ran = await install('keyed-weather-server', '--client', 'claude', '--file', 'claude.json');
      expect(ran.stderr).to.match(/WEATHER_API_KEY: Claude Desktop cannot take it from elsewhere; add it under "env" in the file yourself \(a secret/);
      expect(ran.stderr).to.match(/WEATHER_STATION: Claude Desktop cannot take it from elsewhere/);
    });

    it('lists the variables Codex passes on in env_vars, and writes defaults in the env table', async () => {
      const ran = await install('keyed-weather-server', '--client', 'codex');
      expect(ran.code, ran.stderr).to.equal(0);
      const text = readFileSync(join(home, '.codex', 'config.toml'), 'utf8');
      expect(text).to.not.include('s3cret-value-123').and.not.include('station-from-the-shell');
      expect(text).to.include('env_vars = ["WEATHER_API_KEY", "WEATHER_STATION"]\n\n[mcp_servers.keyed-weather.env]\nWEATHER_UNITS = "metric"\n');
    });
  });

  context('for codex', () => {
    const file = () => join(home, '.codex', 'config.toml');

    /** The TOML table `[mcp_servers.<name>]` of the text, its lines up to the next table. */
    function table(text: string, header: string): string[] {
      const lines = text.split('\n');
      const start = lines.indexOf(header);
      expect(start, `${header} in:\n${text}`).to.not.equal(-1);
      const end = lines.findIndex((line, at) => at > start && line.startsWith('['));
      return lines.slice(start + 1, end === -1 ? undefined : end).filter((line) => line !== '');
    }

    it('appends a [mcp_servers.<name>] table, keeping every line of the file, and backs it up', async () => {
      seed(file(), OLD_CODEX);
      const ran = await install('weather-server', '--client', 'codex');
      expect(ran.code, ran.stderr).to.equal(0);
      const text = readFileSync(file(), 'utf8');
      expect(text.startsWith(OLD_CODEX)).to.equal(true);
      const lines = table(text, '[mcp_servers.weather]');
      expect(lines).to.have.length(2);
      const command = JSON.parse(/^command = (".*")$/.exec(lines[0])![1]) as string;
      const args = JSON.parse(/^args = (\[.*\])$/.exec(lines[1])![1]) as string[];
      expect(args.slice(1)).to.deep.equal(['serve', module('weather-server')]);
      expect(readFileSync(`${file()}.bak`, 'utf8')).to.equal(OLD_CODEX);
      await listsTools(command, args);
    });

    it('puts the table in place of the one of that name, sub-tables included, and keeps the rest', async () => {
      seed(file(), OLD_CODEX);
      expect((await install('keyed-weather-server', '--client', 'codex', '--name', 'weather')).code).to.equal(0);
      expect(readFileSync(file(), 'utf8')).to.include('[mcp_servers.weather.env]');
      const ran = await install('weather-server', '--client', 'codex', '--http', 'https://weather.example.com/mcp');
      expect(ran.code, ran.stderr).to.equal(0);
      expect(ran.stdout).to.include('"weather" replaced in');
      const text = readFileSync(file(), 'utf8');
      expect(text).to.equal(`${OLD_CODEX}\n[mcp_servers.weather]\nurl = "https://weather.example.com/mcp"\n`);
    });

    it('refuses a server written as dotted keys, and changes nothing', async () => {
      const old = `${OLD_CODEX}\n[mcp_servers]\nweather.command = "old"\n`;
      seed(file(), old);
      const ran = await install('weather-server', '--client', 'codex');
      expect(ran.code).to.equal(1);
      expect(ran.stderr).to.include('which phantom-mcp does not rewrite');
      expect(readFileSync(file(), 'utf8')).to.equal(old);
    });

    it('quotes a name TOML keys cannot hold bare, and escapes what strings cannot', async () => {
      const ran = await install('weather-server', '--client', 'codex', '--name', 'my "weather"');
      expect(ran.code, ran.stderr).to.equal(0);
      expect(readFileSync(file(), 'utf8')).to.match(/^\[mcp_servers\."my \\"weather\\""\]\ncommand = /);
    });

    it('honours CODEX_HOME', async () => {
      const codexHome = join(home, 'elsewhere');
      const ran = await cli.run(['install', module('weather-server'), '--client', 'codex'], { cwd: project, env: { ...env, CODEX_HOME: codexHome } });
      expect(ran.code, ran.stderr).to.equal(0);
      expect(existsSync(join(codexHome, 'config.toml'))).to.equal(true);
    });
  });

  context('with --http', () => {
    const cases: [string, string, Json][] = [
      ['claude-code', '.claude.json', { type: 'http', url: 'https://weather.example.com/mcp' }],
      ['cursor', '.cursor/mcp.json', { url: 'https://weather.example.com/mcp' }],
      ['vscode', '.config/Code/User/mcp.json', { type: 'http', url: 'https://weather.example.com/mcp' }],
      ['windsurf', '.codeium/windsurf/mcp_config.json', { serverUrl: 'https://weather.example.com/mcp' }],
    ];
    for (const [client, path, entry] of cases) {
      it(`writes ${client}'s HTTP entry`, async () => {
        const ran = await install('keyed-weather-server', '--client', client, '--http', 'https://weather.example.com/mcp');
        expect(ran.code, ran.stderr).to.equal(0);
        const file = JSON.parse(readFileSync(join(home, path), 'utf8')) as Json;
        expect((file.servers ?? file.mcpServers)['keyed-weather']).to.deep.equal(entry);
        expect(file).to.not.have.property('inputs');
      });
    }

    it('refuses Claude Desktop, whose file holds no HTTP server, and writes nothing', async () => {
      const ran = await install('weather-server', '--client', 'claude', '--file', 'claude.json', '--http', 'https://weather.example.com/mcp');
      expect(ran.code).to.equal(1);
      expect(ran.stderr).to.include('Claude Desktop\'s file holds no HTTP servers').and.include('Connectors');
      expect(existsSync(join(project, 'claude.json'))).to.equal(false);
    });

    it('refuses a URL that is not http or https', async () => {
      const ran = await install('weather-server', '--client', 'cursor', '--http', 'ftp://weather.example.com/mcp');
      expect(ran.code).to.equal(2);
      expect(ran.stderr).to.include('--http must be an http:// or https:// URL');
    });
  });

  context('when writing', () => {
    it('keeps the file\'s permissions (~/.claude.json is private)', async () => {
      const file = join(home, '.claude.json');
      seed(file, '{}\n');
      chmodSync(file, 0o600);
      expect((await install('weather-server', '--client', 'claude-code')).code).to.equal(0);
      expect(statSync(file).mode & 0o777).to.equal(0o600);
    });

    it('writes through a symbolic link, which stays a link', async () => {
      const real = join(home, 'dotfiles', 'mcp.json');
      seed(real, '{ "mcpServers": {} }\n');
      mkdirSync(join(home, '.cursor'));
      symlinkSync(real, join(home, '.cursor', 'mcp.json'));
      expect((await install('weather-server', '--client', 'cursor')).code).to.equal(0);
      expect(lstatSync(join(home, '.cursor', 'mcp.json')).isSymbolicLink()).to.equal(true);
      expect(Object.keys((JSON.parse(readFileSync(real, 'utf8')) as Json).mcpServers)).to.deep.equal(['weather']);
      expect(readFileSync(join(home, '.cursor', 'mcp.json.bak'), 'utf8')).to.equal('{ "mcpServers": {} }\n');
    });

    it('refuses, in one line naming the file, a file it cannot write (a file where its folder should be)', async () => {
      writeFileSync(join(home, 'not-a-folder'), '');
      const file = join(home, 'not-a-folder', 'mcp.json');
      const ran = await install('weather-server', '--client', 'cursor', '--file', file);
      expect(ran.code).to.equal(1);
      expect(ran.stderr).to.match(new RegExp(`^phantom-mcp install: cannot use ${file.replace(/[.]/g, '\\.')}: E[A-Z]+`));
      expect(ran.stderr.trim().split('\n')).to.have.length(1);
    });

    it('leaves no temporary file beside it', async () => {
      expect((await install('weather-server', '--client', 'cursor')).code).to.equal(0);
      expect(readdirSync(join(home, '.cursor'))).to.deep.equal(['mcp.json']);
    });
  });

  context('when the client has no file there', () => {
    it('refuses Claude Desktop on Linux without --file, and Windsurf in a project', async () => {
      const claude = await install('weather-server', '--client', 'claude');
      expect(claude.code).to.equal(1);
      expect(claude.stderr).to.include('Claude Desktop has no linux build').and.include('--file');
      const windsurf = await install('weather-server', '--client', 'windsurf', '--scope', 'project');
      expect(windsurf.code).to.equal(1);
      expect(windsurf.stderr).to.include('Windsurf has no project configuration file');
    });

    it('says, for a project file, that it holds this machine\'s paths', async () => {
      const ran = await install('weather-server', '--client', 'codex', '--scope', 'project');
      expect(ran.code, ran.stderr).to.equal(0);
      expect(existsSync(join(project, '.codex', 'config.toml'))).to.equal(true);
      expect(ran.stderr).to.include('this machine\'s absolute paths').and.include('only when the project is trusted');
    });
  });
});
