import { expect } from 'chai';
import { mkdtempSync, readdirSync, readFileSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix, relative, sep } from 'node:path';
import { packedPackage, REPOSITORY, runIn } from '../support/packed-package';

/** Every file under `root`, as posix paths relative to it, sorted. */
function filesUnder(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir)) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) walk(path);
      else found.push(relative(root, path).split(sep).join('/'));
    }
  };
  walk(root);
  return found.sort();
}

/** A script run with node in `cwd`: what it printed, parsed as JSON. */
async function printed(cwd: string, file: string, source: string): Promise<unknown> {
  writeFileSync(join(cwd, file), source);
  const ran = await runIn(cwd, process.execPath, [file]);
  expect(ran.code, ran.stderr).to.equal(0);
  return JSON.parse(ran.stdout);
}

/** Names each entry exports and what `typeof` gives for them, as the loading scripts print. */
const ENTRIES = {
  'phantom-mcp': ['PhantomServer', 'Tool', 'Resource', 'Prompt', 'Elicit', 'Field', 'StdioTransport', 'ToolError'],
  'phantom-mcp/testing': ['connect', 'testContext', 'textOf', 'structuredOf', 'expectToolError'],
};
const ALL_FUNCTIONS = Object.fromEntries(Object.entries(ENTRIES).map(([entry, names]) => [entry, Object.fromEntries(names.map((name) => [name, 'function']))]));

describe('the npm package', function () {
  this.timeout(300_000);
  const manifest = JSON.parse(readFileSync(join(REPOSITORY, 'package.json'), 'utf8'));
  let project: string;
  let installed: string;
  let files: string[];

  before(async function () {
    this.timeout(300_000);
    const tarball = await packedPackage();
    project = realpathSync(mkdtempSync(join(tmpdir(), 'phantom-package-')));
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'package-contents-spec', version: '1.0.0', private: true }));
    // The peers install with it; the SDK is the optional peer phantom-mcp/testing needs.
    const sdk = `@modelcontextprotocol/sdk@${manifest.devDependencies['@modelcontextprotocol/sdk']}`;
    const install = await runIn(project, 'npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball, sdk], 240_000);
    expect(install.code, install.stderr).to.equal(0);
    installed = join(project, 'node_modules', 'phantom-mcp');
    files = filesUnder(installed);
  });

  describe('its files', () => {
    it('ships the MIT LICENSE that package.json names', () => {
      expect(manifest.license).to.equal('MIT');
      expect(files).to.include('LICENSE');
      expect(readFileSync(join(installed, 'LICENSE'), 'utf8')).to.match(/^MIT License\n\nCopyright \(c\) 2026 phantom-mcp contributors\n/);
    });

    it('ships exactly the compiled library: each module of lib/ as .js, .d.ts and .js.map, each .json of lib/ (pinned schemas), and package.json, README.md, LICENSE', () => {
      const sources = filesUnder(join(REPOSITORY, 'lib'));
      const modules = sources.filter((file) => file.endsWith('.ts')).map((file) => `dist/lib/${file.slice(0, -'.ts'.length)}`);
      const data = sources.filter((file) => file.endsWith('.json')).map((file) => `dist/lib/${file}`);
      const expected = [...modules.flatMap((module) => [`${module}.js`, `${module}.d.ts`, `${module}.js.map`]), ...data, 'LICENSE', 'README.md', 'package.json'].sort();
      expect(files).to.deep.equal(expected);
    });

    it('ships each .json of lib/ byte for byte (tsc would reformat one it imports; the build copies them)', () => {
      const data = filesUnder(join(REPOSITORY, 'lib')).filter((file) => file.endsWith('.json'));
      expect(data).not.to.be.empty;
      for (const file of data) expect(readFileSync(join(installed, 'dist', 'lib', file)).equals(readFileSync(join(REPOSITORY, 'lib', file))), file).to.equal(true);
    });

    it('ships every file package.json points to: main, types, each export condition, the binary', () => {
      const exported = Object.values(manifest.exports as Record<string, Record<string, string>>).flatMap((conditions) => Object.values(conditions));
      const targets = [manifest.main, manifest.types, ...exported, ...Object.values(manifest.bin as Record<string, string>)];
      for (const target of targets) expect(files, target).to.include(posix.normalize(target));
    });

    it('has source maps that each compiled module names, whose sources are carried inside the map or shipped', () => {
      const maps = files.filter((file) => file.endsWith('.js.map'));
      expect(maps).to.have.length(files.filter((file) => file.endsWith('.js')).length);
      for (const map of maps) {
        const script = readFileSync(join(installed, map.slice(0, -'.map'.length)), 'utf8');
        expect(script, map).to.match(new RegExp(`\\n//# sourceMappingURL=${posix.basename(map).replaceAll('.', '\\.')}$`));
        const { sources, sourcesContent } = JSON.parse(readFileSync(join(installed, map), 'utf8')) as { sources: string[]; sourcesContent?: Array<string | null> };
        expect(sources, map).not.to.be.empty;
        sources.forEach((source, i) => {
          const shipped = files.includes(posix.join(posix.dirname(map), source));
          const inlined = typeof sourcesContent?.[i] === 'string' && sourcesContent[i]!.length > 0;
          expect(shipped || inlined, `${map}: ${source}`).to.equal(true);
        });
      }
    });
  });

  describe('its entries', () => {
    it('load with require() from CommonJS, by name: phantom-mcp and phantom-mcp/testing', async () => {
      const source = `const entries = ${JSON.stringify(ENTRIES)};\nconst seen = {};\nfor (const [entry, names] of Object.entries(entries)) {\n  const loaded = require(entry);\n  seen[entry] = Object.fromEntries(names.map((name) => [name, typeof loaded[name]]));\n}\nconsole.log(JSON.stringify(seen));\n`;
      expect(await printed(project, 'load.cjs', source)).to.deep.equal(ALL_FUNCTIONS);
    });

    it('load with import from an ES module, by name: phantom-mcp and phantom-mcp/testing', async () => {
      const source = `import * as phantom from 'phantom-mcp';\nimport * as testing from 'phantom-mcp/testing';\nconst loaded = { 'phantom-mcp': phantom, 'phantom-mcp/testing': testing };\nconst entries = ${JSON.stringify(ENTRIES)};\nconst seen = {};\nfor (const [entry, names] of Object.entries(entries)) seen[entry] = Object.fromEntries(names.map((name) => [name, typeof loaded[entry][name]]));\nconsole.log(JSON.stringify(seen));\n`;
      expect(await printed(project, 'load.mjs', source)).to.deep.equal(ALL_FUNCTIONS);
    });
  });

  describe('its binary', () => {
    it('is linked into node_modules/.bin and prints its usage on --help', async () => {
      const ran = await runIn(project, join(project, 'node_modules', '.bin', process.platform === 'win32' ? 'phantom-mcp.cmd' : 'phantom-mcp'), ['--help']);
      expect(ran.code, ran.stderr).to.equal(0);
      expect(ran.stdout).to.match(/^Usage: phantom-mcp <command> <module>/);
    });
  });

  describe('publishing', () => {
    for (const [label, folder] of [['phantom-mcp', '.'], ['create-phantom-mcp', 'packages/create-phantom-mcp']]) {
      it(`npm publish --dry-run of ${label} warns of nothing npm would correct in package.json`, async () => {
        const ran = await runIn(join(REPOSITORY, folder), 'npm', ['publish', '--dry-run', '--ignore-scripts']);
        expect(ran.code, ran.stderr).to.equal(0);
        const warnings = ran.stderr.split('\n').filter((line) => /^npm warn/.test(line) && !/requires you to be logged in/.test(line));
        expect(warnings).to.deep.equal([]);
      });
    }

    it('claims no MCP registry name: phantom-mcp is a framework, a server made with it carries its own mcpName', () => {
      expect(manifest).not.to.have.property('mcpName');
    });
  });
});
