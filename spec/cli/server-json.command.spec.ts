import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { runIn } from '../support/packed-package';
import { installedCli, REPO, type InstalledCli, type Ran } from './support/installed-cli';

/** The pinned registry schema, and the sha256 of the file as published (modelcontextprotocol/static@a9ba437d). */
const PINNED = join('lib', 'cli', 'distribution', 'schemas', 'server.schema.2025-12-11.json');
const PINNED_SHA256 = '3fba09590c99f61735d234822279f4223fab9e300c0a81e81c91ab62a4114de0';
const SCHEMA_URL = 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json';

const API_KEY = { name: 'WEATHER_API_KEY', description: 'Key for the forecast API', required: true, secret: true };
const UNITS = { name: 'WEATHER_UNITS', description: 'Units of the forecasts', default: 'metric', choices: ['metric', 'imperial'] };

/** The server's options, as the fixture's registryServer() takes them. */
const SERVER = {
  name: 'weather', version: '1.2.0', title: 'Weather', description: 'Forecasts for any city, day by day',
  icons: [{ src: 'https://acme.example/icon.png', mimeType: 'image/png', sizes: ['48x48'] }, { src: 'data:image/png;base64,iVBORw0KGgo=' }],
  environment: [API_KEY, UNITS],
};

const PACKAGE = {
  name: '@acme/weather-mcp', version: '1.2.0', description: 'Weather forecasts as an MCP server', mcpName: 'io.github.acme/weather',
  bin: { 'weather-mcp': 'bin/stdio.js' }, repository: { type: 'git', url: 'git+https://github.com/acme/weather-mcp.git' }, homepage: 'https://acme.example/weather',
};

type Json = Record<string, any>;

describe('phantom-mcp server-json', function () {
  // Each case runs the installed binary, which loads the module's server, a few times.
  this.timeout(60_000);
  let cli: InstalledCli;
  let root: string;
  let validate: ValidateFunction;
  before(async function () {
    this.timeout(120_000);
    cli = await installedCli();
    root = mkdtempSync(join(tmpdir(), 'phantom-server-json-'));
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    validate = ajv.compile(JSON.parse(readFileSync(join(REPO, PINNED), 'utf8')));
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  let made = 0;
  /** A package in a temporary folder: package.json, server.js (the fixture's server with these options), bin/stdio.js. */
  /** What the README says the bin is: a node script serving the module's server over stdio. */
  const STDIO_BIN = `#!/usr/bin/env node\nconst { StdioTransport } = require(${JSON.stringify(join(REPO, 'dist', 'lib', 'index.js'))});\nvoid require('../server.js').connect(new StdioTransport());\n`;

  function project(pkg: Json = PACKAGE, server: Json = SERVER, bin = STDIO_BIN): string {
    const dir = join(root, `project-${++made}`);
    mkdirSync(join(dir, 'bin'), { recursive: true });
    writeFileSync(join(dir, 'package.json'), JSON.stringify(pkg, null, 2));
    const fixture = join(REPO, 'dist', 'spec', 'cli', 'fixtures', 'registry-server.js');
    writeFileSync(join(dir, 'server.js'), `module.exports = require(${JSON.stringify(fixture)}).registryServer(${JSON.stringify(server)});\n`);
    writeFileSync(join(dir, 'bin', 'stdio.js'), bin);
    return dir;
  }

  function serverJson(dir: string, ...flags: string[]): Promise<Ran> {
    return cli.run(['server-json', 'server.js', ...flags], { cwd: dir });
  }

  async function written(dir: string, ...flags: string[]): Promise<Json> {
    const ran = await serverJson(dir, ...flags);
    expect(ran.code, ran.stderr).to.equal(0);
    const document = JSON.parse(ran.stdout) as Json;
    expect(validate(document), JSON.stringify(validate.errors)).to.equal(true);
    return document;
  }

  async function refused(dir: string, message: string | RegExp): Promise<void> {
    const ran = await serverJson(dir);
    expect(ran.code, ran.stdout).to.equal(1);
    expect(ran.stdout).to.equal('');
    if (typeof message === 'string') expect(ran.stderr).to.include(message);
    else expect(ran.stderr).to.match(message);
  }

  describe('the pinned schema', () => {
    it('is the registry\'s 2025-12-11 file, byte for byte, in the repository and in the installed package', () => {
      const installed = join(cli.project, 'node_modules', 'phantom-mcp', 'dist', PINNED);
      for (const file of [join(REPO, PINNED), installed]) {
        expect(createHash('sha256').update(readFileSync(file)).digest('hex'), file).to.equal(PINNED_SHA256);
      }
      expect(JSON.parse(readFileSync(installed, 'utf8')).$id).to.equal(SCHEMA_URL);
    });
  });

  context('for a package with all the registry needs', () => {
    it('prints a server.json valid against the pinned schema, from the server and its package.json', async () => {
      const document = await written(project());
      expect(document).to.deep.include({
        $schema: SCHEMA_URL, name: 'io.github.acme/weather', title: 'Weather', description: 'Forecasts for any city, day by day', version: '1.2.0',
        websiteUrl: 'https://acme.example/weather', repository: { url: 'https://github.com/acme/weather-mcp', source: 'github' },
      });
      expect(document).not.to.have.property('remotes');
    });

    it('lists the npm package, run with npx over stdio, with the environment variables the server declares', async () => {
      const { packages } = await written(project());
      expect(packages).to.deep.equal([{
        registryType: 'npm', registryBaseUrl: 'https://registry.npmjs.org', identifier: '@acme/weather-mcp', version: '1.2.0', runtimeHint: 'npx', transport: { type: 'stdio' },
        environmentVariables: [
          { name: 'WEATHER_API_KEY', description: 'Key for the forecast API', isRequired: true, isSecret: true },
          { name: 'WEATHER_UNITS', description: 'Units of the forecasts', isRequired: false, isSecret: false, default: 'metric', choices: ['metric', 'imperial'] },
        ],
      }]);
    });

    it('keeps the https icons and says on stderr which it left out and why', async () => {
      const dir = project();
      const ran = await serverJson(dir);
      expect(JSON.parse(ran.stdout).icons).to.deep.equal([SERVER.icons[0]]);
      expect(ran.stderr).to.match(/^note: icon data:image\/png;base64,iVBORw0KGgo= left out: the registry takes https URLs only/m);
    });

    it('takes package.json\'s description when the server has none', async () => {
      const { description: _none, ...server } = SERVER;
      expect((await written(project(PACKAGE, server))).description).to.equal('Weather forecasts as an MCP server');
    });

    it('adds an OCI image, a desktop bundle and a remote when given, still valid', async () => {
      const sha = 'ab'.repeat(32);
      const document = await written(project(), '--oci', 'ghcr.io/acme/weather-mcp:1.2.0', '--mcpb', 'https://github.com/acme/weather-mcp/releases/download/v1.2.0/weather.mcpb', '--sha256', sha, '--remote', 'https://weather.acme.example/mcp');
      expect(document.packages.map((entry: Json) => entry.registryType)).to.deep.equal(['npm', 'oci', 'mcpb']);
      expect(document.packages[1]).to.deep.equal({ registryType: 'oci', identifier: 'ghcr.io/acme/weather-mcp:1.2.0', transport: { type: 'stdio' }, environmentVariables: document.packages[0].environmentVariables });
      expect(document.packages[2]).to.deep.equal({ registryType: 'mcpb', identifier: 'https://github.com/acme/weather-mcp/releases/download/v1.2.0/weather.mcpb', fileSha256: sha, transport: { type: 'stdio' } });
      expect(document.remotes).to.deep.equal([{ type: 'streamable-http', url: 'https://weather.acme.example/mcp' }]);
    });

    it('writes the file with --out, keeping the _meta a publisher put there', async () => {
      const dir = project();
      const meta = { 'io.modelcontextprotocol.registry/publisher-provided': { build: 'ci-42' } };
      writeFileSync(join(dir, 'server.json'), JSON.stringify({ name: 'old', _meta: meta }));
      const ran = await serverJson(dir, '--out', 'server.json');
      expect(ran.code, ran.stderr).to.equal(0);
      expect(ran.stdout).to.equal('');
      expect(ran.stderr).to.include('wrote server.json: io.github.acme/weather 1.2.0');
      const document = JSON.parse(readFileSync(join(dir, 'server.json'), 'utf8'));
      expect(document).to.deep.include({ name: 'io.github.acme/weather', _meta: meta });
      expect(validate(document)).to.equal(true);
    });

    it('names a package that npx starts as a stdio server, bin and all, as a client would run it', async () => {
      const dir = project();
      const [npm] = (await written(dir)).packages;
      expect(npm).to.include({ runtimeHint: 'npx' }).and.to.deep.include({ transport: { type: 'stdio' } });
      const packed = await runIn(dir, 'npm', ['pack', '--silent']);
      expect(packed.code, packed.stderr).to.equal(0);
      // npx <tarball> picks the bin as npx <identifier> does; a cache of its own, offline: nothing is fetched.
      const transport = new StdioClientTransport({
        command: 'npx', args: ['--yes', '--offline', `./${packed.stdout.trim()}`], cwd: dir, stderr: 'pipe',
        env: { ...process.env, npm_config_cache: join(dir, '.npm-cache') } as Record<string, string>,
      });
      const client = new Client({ name: 'server-json-spec', version: '1' });
      await client.connect(transport);
      try {
        expect(client.getServerVersion()).to.include({ name: 'weather', version: npm.version });
        expect((await client.listTools()).tools.map((tool) => tool.name)).to.deep.equal(['forecast']);
      } finally {
        await client.close();
      }
    });
  });

  context('when package.json or the server lacks what the registry needs', () => {
    it('refuses without mcpName, saying what to add', async () => {
      const { mcpName: _none, ...pkg } = PACKAGE;
      await refused(project(pkg), 'package.json has no "mcpName": add the server\'s registry name, e.g. "mcpName": "io.github.<your GitHub user>/<server>"');
    });

    it('refuses an mcpName that is not namespace/name', async () => {
      await Promise.all(['weather', 'io.github.acme/weather/extra', 'io.github.acme/wea ther'].map((mcpName) => refused(project({ ...PACKAGE, mcpName }), `package.json "mcpName" ${JSON.stringify(mcpName)} is not a registry name`)));
    });

    it('refuses a description of 101 characters, saying which one to shorten', async () => {
      const long = 'x'.repeat(101);
      await refused(project(PACKAGE, { ...SERVER, description: long }), 'the server\'s description option is 101 characters; the registry takes at most 100');
      const { description: _none, ...server } = SERVER;
      await refused(project({ ...PACKAGE, description: long }, server), 'package.json "description" is 101 characters; the registry takes at most 100: set a shorter one in the server\'s description option');
      expect((await written(project(PACKAGE, { ...SERVER, description: 'x'.repeat(100) }))).description).to.have.length(100);
    });

    it('refuses without any description, naming both places to set one', async () => {
      const { description: _server, ...server } = SERVER;
      const { description: _package, ...pkg } = PACKAGE;
      await refused(project(pkg, server), 'no description: set the server\'s description option (new PhantomServer({ description: \'...\' })) or "description" in package.json');
    });

    it('refuses a version range, and a server version that is not package.json\'s', async () => {
      await Promise.all([
        refused(project({ ...PACKAGE, version: '^1.2.0' }, SERVER), 'package.json "version" "^1.2.0" is a range or a tag; the registry needs one exact version'),
        refused(project(PACKAGE, { ...SERVER, version: '1.x' }), 'the server\'s version option "1.x" is a range or a tag'),
        refused(project({ ...PACKAGE, version: '1.3.0' }, SERVER), 'the server\'s version option (1.2.0) differs from package.json "version" (1.3.0)'),
      ]);
    });

    it('refuses without a bin that npx can run, saying what it must be', async () => {
      const { bin: _none, ...pkg } = PACKAGE;
      await Promise.all([
        refused(project(pkg), 'package.json has no "bin": clients start the server with npx @acme/weather-mcp, which runs the package\'s binary; add one that serves over stdio, e.g. "bin": { "weather-mcp": "dist/stdio.js" }'),
        refused(project(PACKAGE, SERVER, 'require(\'../server.js\');\n'), 'package.json "bin" weather-mcp (bin/stdio.js) does not start with #!/usr/bin/env node'),
        refused(project({ ...PACKAGE, bin: { 'weather-mcp': 'dist/missing.js' } }), 'package.json "bin" weather-mcp is dist/missing.js, which does not exist'),
        refused(project({ ...PACKAGE, bin: { a: 'bin/stdio.js', b: 'bin/stdio.js' } }), 'package.json "bin" has several entries (a, b) and none named "weather-mcp"'),
      ]);
    });

    it('refuses a private package, and a title longer than the registry takes', async () => {
      await Promise.all([
        refused(project({ ...PACKAGE, private: true }), 'package.json says "private": true, so npm will not publish it'),
        refused(project(PACKAGE, { ...SERVER, title: 't'.repeat(101) }), 'the server\'s title option is 101 characters; the registry takes 1 to 100'),
      ]);
    });

    it('lists every problem at once', async () => {
      const { mcpName: _name, bin: _bin, ...pkg } = PACKAGE;
      const ran = await serverJson(project({ ...pkg, version: '1.3.0' }));
      expect(ran.code).to.equal(1);
      expect(ran.stderr.match(/^ {2}- /gm)).to.have.length(3);
    });
  });

  context('when a flag is wrong', () => {
    it('exits 2 with the usage, saying what the flag takes', async () => {
      const dir = project();
      const cases: [string[], string][] = [
        [['--mcpb', 'https://github.com/acme/weather-mcp/releases/download/v1/weather.mcpb'], '--mcpb and --sha256 go together'],
        [['--mcpb', 'https://github.com/acme/weather-mcp/releases/download/v1/weather.mcpb', '--sha256', 'abc'], '--sha256 takes the file\'s SHA-256 as 64 hex digits'],
        [['--oci', 'weather:1.2.0'], '--oci takes a full image reference with its registry and a tag or digest'],
        [['--remote', 'http://weather.acme.example/mcp'], '--remote takes the https URL'],
        [['--out', 'a.json', '--check', 'b.json'], '--out writes the file and --check compares it: give one'],
      ];
      const runs = await Promise.all(cases.map(([flags]) => serverJson(dir, ...flags)));
      for (const [at, [flags, message]] of cases.entries()) {
        const ran = runs[at];
        expect(ran.code, flags.join(' ')).to.equal(2);
        expect(ran.stderr).to.include(message).and.to.include('Usage: phantom-mcp server-json <module>');
      }
    });
  });

  describe('--check', () => {
    /** A project with a server.json written by the command itself, and a `_meta` added by hand. */
    async function committed(...flags: string[]): Promise<string> {
      const dir = project();
      expect((await serverJson(dir, ...flags, '--out', 'server.json')).code).to.equal(0);
      const document = JSON.parse(readFileSync(join(dir, 'server.json'), 'utf8'));
      writeFileSync(join(dir, 'server.json'), JSON.stringify({ _meta: { 'io.modelcontextprotocol.registry/publisher-provided': { by: 'hand' } }, ...document }, null, 4));
      return dir;
    }

    /** The same project's code and package.json changed; the committed server.json left as it was. */
    function changed(dir: string, pkg: Json, server: Json): void {
      writeFileSync(join(dir, 'package.json'), JSON.stringify(pkg));
      const fixture = join(REPO, 'dist', 'spec', 'cli', 'fixtures', 'registry-server.js');
      writeFileSync(join(dir, 'server.js'), `module.exports = require(${JSON.stringify(fixture)}).registryServer(${JSON.stringify(server)});\n`);
    }

    it('exits 0 when the file says what the code makes, key order, layout and _meta aside', async () => {
      const ran = await serverJson(await committed(), '--check', 'server.json');
      expect(ran).to.include({ code: 0, stdout: 'server.json is up to date\n' });
    });

    it('exits 1 with a line naming an environment variable the code added', async () => {
      const dir = await committed();
      changed(dir, PACKAGE, { ...SERVER, environment: [...SERVER.environment, { name: 'WEATHER_CACHE_DIR', description: 'Where forecasts are cached', format: 'filepath' }] });
      const ran = await serverJson(dir, '--check', 'server.json');
      expect(ran.code).to.equal(1);
      expect(ran.stderr).to.include('server.json differs from what the code makes (1 difference)');
      expect(ran.stderr).to.include('  - packages[npm].environmentVariables[WEATHER_CACHE_DIR]: missing from server.json; the code makes {"name":"WEATHER_CACHE_DIR"');
    });

    it('exits 1 with a line for each field a version bump changed', async () => {
      const dir = await committed();
      changed(dir, { ...PACKAGE, version: '1.3.0' }, { ...SERVER, version: '1.3.0' });
      const ran = await serverJson(dir, '--check', 'server.json');
      expect(ran.code).to.equal(1);
      expect(ran.stderr.split('\n').filter((line) => line.startsWith('  - '))).to.deep.equal([
        '  - version: "1.2.0" in server.json, "1.3.0" from the code',
        '  - packages[npm].version: "1.2.0" in server.json, "1.3.0" from the code',
      ]);
    });

    it('names an mcpName that is no longer the file\'s name', async () => {
      const dir = await committed();
      changed(dir, { ...PACKAGE, mcpName: 'io.github.acme/forecasts' }, SERVER);
      const ran = await serverJson(dir, '--check', 'server.json');
      expect(ran.code).to.equal(1);
      expect(ran.stderr).to.include('  - name: "io.github.acme/weather" in server.json, but package.json "mcpName" is "io.github.acme/forecasts"');
    });

    it('keeps the file\'s OCI image when --oci is not given, but compares its environment', async () => {
      const dir = await committed('--oci', 'ghcr.io/acme/weather-mcp:1.2.0');
      expect((await serverJson(dir, '--check', 'server.json')).code).to.equal(0);
      changed(dir, PACKAGE, { ...SERVER, environment: [API_KEY] });
      const ran = await serverJson(dir, '--check', 'server.json');
      expect(ran.code).to.equal(1);
      expect(ran.stderr).to.include('  - packages[npm].environmentVariables[WEATHER_UNITS]: in server.json only');
      expect(ran.stderr).to.include('  - packages[oci].environmentVariables[WEATHER_UNITS]: in server.json only');
    });

    it('exits 1 when the file is missing or not JSON', async () => {
      const dir = project();
      expect((await serverJson(dir, '--check', 'server.json')).stderr).to.include('server.json does not exist: write it with --out server.json');
      writeFileSync(join(dir, 'server.json'), '{ "name": ');
      const ran = await serverJson(dir, '--check', 'server.json');
      expect(ran.code).to.equal(1);
      expect(ran.stderr).to.include('server.json is not JSON');
    });
  });
});
