import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, relative } from 'node:path';
import { getMcpConfigForManifest, MANIFEST_SCHEMAS, unpackExtension } from '@anthropic-ai/mcpb';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { runIn } from '../support/packed-package';
import { installedCli, REPO, type InstalledCli } from './support/installed-cli';
import { onePixelPng, writeBundledPackage } from './support/bundle-package';

/** The temporary folders made so far, removed when the specs are done. */
const temporary: string[] = [];

/** An empty folder outside the repository and the CLI's project: no node_modules above it. */
function emptyFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'bundle-spec-'));
  temporary.push(folder);
  return folder;
}

/** Every file under `dir`, as paths relative to it; links are reported as such. */
function listed(dir: string, under = ''): string[] {
  return readdirSync(join(dir, under)).sort().flatMap((name) => {
    const path = under === '' ? name : `${under}/${name}`;
    const stats = lstatSync(join(dir, path));
    if (stats.isSymbolicLink()) return [`${path} (a link)`];
    return stats.isDirectory() ? listed(dir, path) : [path];
  });
}

/** The .mcpb unpacked by unzip (or, where there is none, by the mcpb package) into an empty folder. */
async function unpacked(file: string): Promise<string> {
  const into = emptyFolder();
  let hasUnzip = true;
  try {
    execFileSync('unzip', ['-v'], { stdio: 'ignore' });
  } catch {
    hasUnzip = false;
  }
  if (hasUnzip) execFileSync('unzip', ['-q', file, '-d', into]);
  else expect(await unpackExtension({ mcpbPath: file, outputDir: into, silent: true })).to.equal(true);
  return into;
}

/** How a host runs the bundle: the manifest's mcp_config resolved for the unpacked folder and these settings. */
async function hostCommand(folder: string, userConfig: Record<string, string>) {
  const manifest = JSON.parse(readFileSync(join(folder, 'manifest.json'), 'utf8'));
  const home = emptyFolder();
  const config = await getMcpConfigForManifest({
    manifest, extensionPath: folder, userConfig, pathSeparator: '/',
    systemDirs: { HOME: home, DESKTOP: home, DOCUMENTS: home, DOWNLOADS: home },
  });
  expect(config, 'the host refuses to start it').to.not.equal(undefined);
  return { config: config!, home };
}

/** The server started as a host starts it: PATH without any node_modules, HOME and cwd an empty folder. */
async function connected(folder: string, userConfig: Record<string, string>): Promise<Client> {
  const { config, home } = await hostCommand(folder, userConfig);
  const path = (process.env.PATH ?? '').split(delimiter).filter((entry) => !entry.includes('node_modules')).join(delimiter);
  const client = new Client({ name: 'bundle-spec', version: '1' });
  await client.connect(new StdioClientTransport({ command: config.command, args: config.args, env: { ...config.env, PATH: path, HOME: home }, cwd: home, stderr: 'pipe' }));
  return client;
}

describe('phantom-mcp bundle', function () {
  this.timeout(240_000);
  let cli: InstalledCli;
  /** The fixture package in the CLI's project (packages/weather): its dependencies resolve from the project's node_modules. */
  let module: string;

  before(async () => {
    cli = await installedCli();
    module = relative(cli.project, writeBundledPackage(join(cli.project, 'packages', 'weather')));
  });

  after(() => {
    for (const folder of temporary.splice(0)) rmSync(folder, { recursive: true, force: true });
  });

  context('when it builds a bundle', () => {
    let out: string;
    let folder: string;
    let report: string;

    before(async () => {
      const icon = join(emptyFolder(), 'weather.png');
      writeFileSync(icon, onePixelPng());
      out = join(emptyFolder(), 'weather.mcpb');
      const ran = await cli.run(['bundle', module, '--icon', icon, '--out', out]);
      expect(ran.code, ran.stderr).to.equal(0);
      report = ran.stdout;
      folder = await unpacked(out);
    });

    it('prints where it wrote and a size report', () => {
      expect(report).to.include(`wrote ${out}`);
      expect(report).to.match(/packed\s+[\d.]+ (B|kB|MB)\n\s+unpacked\s+[\d.]+ (B|kB|MB)\n\s+files\s+\d+ \(\d+ dependencies\)/);
      expect(report).to.match(/largest dependencies:\n\s+[\d.]+ (B|kB|MB)\s+\S+@\d/);
      expect(report).to.include('largest files:');
    });

    it('writes a manifest that the MCPB 0.3 schema and `mcpb validate` accept', async () => {
      const manifest = JSON.parse(readFileSync(join(folder, 'manifest.json'), 'utf8'));
      const parsed = MANIFEST_SCHEMAS['0.3'].safeParse(manifest);
      expect(parsed.success, JSON.stringify(parsed.error?.issues)).to.equal(true);
      const validated = await runIn(REPO, join(REPO, 'node_modules', '.bin', 'mcpb'), ['validate', join(folder, 'manifest.json')]);
      expect(validated.code, validated.stdout + validated.stderr).to.equal(0);
    });

    it('describes the package and the server as they declare themselves', () => {
      const manifest = JSON.parse(readFileSync(join(folder, 'manifest.json'), 'utf8'));
      expect(manifest).to.include({ manifest_version: '0.3', name: 'weather-bundle', display_name: 'Weather', version: '1.2.0', description: 'Forecasts for any city', icon: 'icon.png', license: 'MIT', homepage: 'https://example.com/weather' });
      expect(manifest.author).to.deep.equal({ name: 'Ada Lovelace', email: 'ada@example.com', url: 'https://example.com/ada' });
      expect(manifest.repository).to.deep.equal({ type: 'git', url: 'https://github.com/acme/weather' });
      expect(manifest.keywords).to.deep.equal(['weather', 'mcp']);
      expect(manifest.compatibility).to.deep.equal({ runtimes: { node: '>=20.19' } });
      expect(manifest.tools).to.deep.equal([
        { name: 'forecast', description: 'The forecast for a city' },
        { name: 'settings', description: 'The settings the server was started with' },
      ]);
      expect(manifest.prompts).to.deep.equal([{ name: 'briefing', description: 'A briefing for a city', arguments: ['city'], text: 'A briefing for a city\ncity: ${arguments.city}' }]);
      expect(manifest.prompts_generated).to.equal(true);
      expect(manifest.user_config).to.deep.equal({
        weather_api_key: { type: 'string', title: 'WEATHER_API_KEY', description: 'The weather service key', required: true, sensitive: true },
        weather_units: { type: 'string', title: 'WEATHER_UNITS', description: 'Units of measure (one of: metric, imperial)', default: 'metric' },
        weather_days: { type: 'number', title: 'WEATHER_DAYS', description: 'How many days ahead by default', default: 3 },
        weather_cache: { type: 'file', title: 'WEATHER_CACHE', description: 'Where to keep answers' },
      });
      expect(manifest.server).to.deep.equal({
        type: 'node',
        entry_point: 'server/dist/server.js',
        mcp_config: {
          command: 'node',
          args: ['--require', '${__dirname}/blank-settings.cjs', '${__dirname}/server/node_modules/phantom-mcp/dist/lib/cli/main.js', 'serve', '${__dirname}/server/dist/server.js'],
          env: { WEATHER_API_KEY: '${user_config.weather_api_key}', WEATHER_UNITS: '${user_config.weather_units}', WEATHER_DAYS: '${user_config.weather_days}', WEATHER_CACHE: '${user_config.weather_cache}' },
        },
      });
    });

    it('holds the published files and the production dependencies as real files, and nothing else', () => {
      const files = listed(folder);
      expect(files.filter((file) => file.endsWith('(a link)'))).to.deep.equal([]);
      expect(files.filter((file) => !file.startsWith('server/node_modules/'))).to.deep.equal([
        'blank-settings.cjs', 'icon.png', 'manifest.json', 'server/README.md', 'server/dist/bundled-weather.js', 'server/dist/server.js', 'server/package.json',
      ]);
      const packages = new Set(files.filter((file) => file.startsWith('server/node_modules/')).map((file) => file.split('/').slice(2, file.split('/')[2].startsWith('@') ? 4 : 3).join('/')));
      // Its dependencies, phantom-mcp's dependencies and its peers (tsyringe, class-transformer), not its devDependencies.
      expect([...packages]).to.include.members(['phantom-mcp', 'reflect-metadata', 'class-validator', 'ajv', 'jose', 'tsyringe', 'class-transformer']);
      expect([...packages]).to.not.include('typescript');
      expect(files.filter((file) => file.endsWith('.map'))).to.deep.equal([]);
      expect(files).to.not.include('server/node_modules/.bin');
    });

    it('keeps the files\' modes: the binary stays executable', () => {
      const bin = join(folder, 'server', 'node_modules', 'phantom-mcp', 'dist', 'lib', 'cli', 'main.js');
      expect(statSync(bin).mode & 0o111).to.not.equal(0);
      expect(statSync(join(folder, 'manifest.json')).mode & 0o777).to.equal(0o644);
    });

    it('starts over stdio from an empty folder with no node_modules above it, and lists the manifest\'s tools', async () => {
      for (let at = folder; dirname(at) !== at; at = dirname(at)) expect(existsSync(join(dirname(at), 'node_modules')), dirname(at)).to.equal(false);
      const manifest = JSON.parse(readFileSync(join(folder, 'manifest.json'), 'utf8'));
      const client = await connected(folder, { weather_api_key: 'k-123' });
      try {
        const { tools } = await client.listTools();
        expect(tools.map((tool) => ({ name: tool.name, description: tool.description }))).to.deep.equal(manifest.tools);
        expect((await client.callTool({ name: 'forecast', arguments: { city: 'Oslo' } })).structuredContent).to.deep.equal({ city: 'Oslo', sky: 'clear' });
      } finally {
        await client.close();
      }
    });

    it('hands the settings to the server, their defaults when left alone, and a blank optional one as unset', async () => {
      const client = await connected(folder, { weather_api_key: 'k-123', weather_units: 'imperial' });
      try {
        const { structuredContent } = await client.callTool({ name: 'settings', arguments: {} });
        expect(structuredContent).to.deep.equal({ key: 'k-123', units: 'imperial', days: '3', cache: null });
      } finally {
        await client.close();
      }
    });
  });

  context('with --check', () => {
    let manifest: string;

    before(async () => {
      manifest = join(emptyFolder(), 'manifest.json');
      const ran = await cli.run(['bundle', module, '--manifest-only', '--out', manifest]);
      expect(ran.code, ran.stderr).to.equal(0);
    });

    it('exits 0 when the committed manifest is what the code declares', async () => {
      const ran = await cli.run(['bundle', module, '--check', manifest]);
      expect(ran.code, ran.stderr).to.equal(0);
      expect(ran.stdout).to.include(`${manifest} is up to date`);
    });

    it('exits 1 naming a tool added since, and writes nothing', async () => {
      const before = readFileSync(manifest, 'utf8');
      const grown = relative(cli.project, writeBundledPackage(join(cli.project, 'packages', 'weather-grown'), { grown: true }));
      const ran = await cli.run(['bundle', grown, '--check', manifest]);
      expect(ran.code).to.equal(1);
      expect(ran.stderr).to.include('1 difference');
      expect(ran.stderr).to.include('tools["alerts"]: new');
      expect(readFileSync(manifest, 'utf8')).to.equal(before);
    });

    it('exits 1 naming a version bumped since', async () => {
      const bumped = relative(cli.project, writeBundledPackage(join(cli.project, 'packages', 'weather-bumped'), { json: { version: '1.3.0' } }));
      const ran = await cli.run(['bundle', bumped, '--check', manifest]);
      expect(ran.code).to.equal(1);
      expect(ran.stderr).to.include('version: "1.2.0" -> "1.3.0"');
    });
  });

  context('when the package lacks what a bundle needs', () => {
    async function refused(name: string, json: Record<string, unknown>, extra: string[] = []): Promise<string> {
      const at = relative(cli.project, writeBundledPackage(join(cli.project, 'packages', name), { json }));
      const into = emptyFolder();
      const ran = await cli.run(['bundle', at, '--out', join(into, 'x.mcpb'), ...extra]);
      expect(ran.code, ran.stdout).to.equal(1);
      expect(readdirSync(into)).to.deep.equal([]);
      return ran.stderr;
    }

    it('refuses a package without an author, saying that MCPB requires one', async () => {
      expect(await refused('no-author', { author: undefined })).to.match(/needs an author \(MCPB requires one\): add "author"/);
    });

    it('refuses a module the package does not publish', async () => {
      expect(await refused('unpublished', { files: ['lib'], main: 'lib/index.js' })).to.match(/dist\/server\.js would not be in the bundle: the package\.json "files" \(lib\) leaves it out/);
    });

    it('refuses a package whose phantom-mcp is a devDependency', async () => {
      const stderr = await refused('dev-phantom', { dependencies: { 'class-validator': '*' }, devDependencies: { 'phantom-mcp': '*' } });
      expect(stderr).to.match(/phantom-mcp is not in the "dependencies" of .*\(it is in devDependencies/);
    });

    it('refuses an icon that is not a PNG', async () => {
      const icon = join(emptyFolder(), 'icon.png');
      writeFileSync(icon, '<svg/>');
      expect(await refused('svg-icon', {}, ['--icon', icon])).to.include('is not a PNG file');
    });
  });

  context('when it is used badly', () => {
    it('exits 2 with the usage when --check comes with --manifest-only', async () => {
      const ran = await cli.run(['bundle', module, '--check', 'manifest.json', '--manifest-only']);
      expect(ran.code).to.equal(2);
      expect(ran.stderr).to.include('Usage: phantom-mcp bundle');
    });
  });
});
