import 'reflect-metadata';
import { expect } from 'chai';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { main } from '../../../lib/cli/main';
import { listenWithCard, server as exampleServer } from '../../../docs/examples/publishing';
import { DOCS } from '../snippet-includes';

/** The repository's root, from dist/spec/docs/examples. */
const REPO = join(__dirname, '..', '..', '..', '..');
const COMPILED = join(REPO, 'dist', 'docs', 'examples');

/** Where the pages say the project is, and whose home it is. */
const SHOWN_HOME = '/home/ada';
const SHOWN_PROJECT = `${SHOWN_HOME}/weather-mcp`;
const SHOWN_NODE = '/usr/bin/node';

/** What phantom-mcp needs beside itself at run time, linked from this repository's install. */
const PEERS = ['reflect-metadata', 'tsyringe', 'class-validator', 'class-transformer'];

/** A ```bash fence holding one command, then the fence with what it printed. */
const COMMAND_AND_OUTPUT = /```bash\n([^\n`]+)\n```\s*\n```(?:text|json)\n([\s\S]*?)```/g;

/** Commands the pages show with output that this spec does not run, and why. */
const SHOWN_NOT_RUN: Record<string, string> = {
  'npx phantom-mcp serve dist/server.js --http --port 3417': 'a long-running process (spec/cli/serve.command.spec.ts)',
  'npx phantom-mcp dev dist/server.js --http --port 3418': 'tsc --watch and a server process (spec/cli/dev.command.spec.ts)',
  'npx phantom-mcp bundle dist/server.js': 'the sizes are those of an npm install (spec/cli/bundle.command.spec.ts builds one)',
};

function pageText(page: string): string {
  return readFileSync(join(DOCS, 'guide', page), 'utf8');
}

/** Every command a page shows with its output. */
function shownCommands(page: string): Array<{ command: string; output: string }> {
  return [...pageText(page).matchAll(COMMAND_AND_OUTPUT)].map(([, command, output]) => ({ command, output }));
}

/** The one ```json fence of a page that holds `marker`, parsed. */
function jsonBlock(page: string, marker: string): unknown {
  const blocks = [...pageText(page).matchAll(/```json\n([\s\S]*?)```/g)].map(([, body]) => body).filter((body) => body.includes(marker));
  expect(blocks, `${page}: one json fence with ${marker}`).to.have.length(1);
  return JSON.parse(blocks[0]);
}

/** `VAR=value npx phantom-mcp a 'b c'`: the environment and the arguments after the binary. */
function commandLine(command: string): { env: Record<string, string>; argv: string[] } {
  const words = [...command.matchAll(/'([^']*)'|(\S+)/g)].map(([, quoted, bare]) => quoted ?? bare);
  const env: Record<string, string> = {};
  while (/^[A-Z_]+=/.test(words[0])) {
    const [name, value] = words.shift()!.split('=');
    env[name] = value;
  }
  expect(words.slice(0, 2), command).to.deep.equal(['npx', 'phantom-mcp']);
  return { env, argv: words.slice(2) };
}

describe('docs/examples/publishing.ts (the CLI and publishing guides, run as the pages show)', () => {
  let root: string;
  let project: string;
  const checked = new Set<string>();

  before(() => {
    // The weather project of docs/guide/publishing.md: the page's package.json, the example
    // compiled to dist/server.js and dist/stdio.js, and phantom-mcp installed as this repository.
    root = mkdtempSync(join(tmpdir(), 'phantom-docs-publishing-'));
    project = join(root, 'weather-mcp');
    mkdirSync(join(project, 'dist'), { recursive: true });
    mkdirSync(join(project, 'node_modules'));
    writeFileSync(join(project, 'package.json'), `${JSON.stringify(jsonBlock('publishing.md', '"mcpName"'), null, 2)}\n`);
    copyFileSync(join(COMPILED, 'publishing.js'), join(project, 'dist', 'server.js'));
    const stdio = readFileSync(join(COMPILED, 'publishing-stdio.js'), 'utf8');
    expect(stdio.startsWith('#!/usr/bin/env node\n')).to.equal(true);
    // The page's src/stdio.ts imports './server', the example file './publishing'.
    writeFileSync(join(project, 'dist', 'stdio.js'), stdio.replace('require("./publishing")', 'require("./server")'));
    symlinkSync(REPO, join(project, 'node_modules', 'phantom-mcp'), 'dir');
    for (const name of PEERS) symlinkSync(join(REPO, 'node_modules', name), join(project, 'node_modules', name), 'dir');
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  /** Runs the command line in-process in the project, as the pages show it: what it printed (paths as on the page) and its exit code. */
  async function run(command: string): Promise<{ code: number; printed: string; out: string }> {
    const { env, argv } = commandLine(command);
    // A fresh copy of the module for each command, as each process would load it.
    for (const key of Object.keys(require.cache)) if (key.startsWith(project)) delete require.cache[key];
    const saved = { WEATHER_API_KEY: process.env.WEATHER_API_KEY, WEATHER_UNITS: process.env.WEATHER_UNITS };
    delete process.env.WEATHER_API_KEY;
    delete process.env.WEATHER_UNITS;
    Object.assign(process.env, env);
    let printed = '';
    let out = '';
    try {
      const code = await main(argv, {
        cwd: project, env: { HOME: root }, platform: 'linux', input: new PassThrough(),
        out: (text) => { printed += text; out += text; },
        err: (text) => { printed += text; },
      });
      const shown = (text: string) => text
        .split(process.execPath).join(SHOWN_NODE)
        .split(`${REPO}/`).join(`${project}/node_modules/phantom-mcp/`)
        .split(project).join(SHOWN_PROJECT)
        .split(root).join(SHOWN_HOME);
      return { code, printed: shown(printed), out };
    } finally {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  }

  /** Runs a command a page shows and expects what the page says it prints; resolves with the exit code and stdout. */
  async function runAsShown(page: string, command: string): Promise<{ code: number; out: string }> {
    const shown = shownCommands(page).filter((entry) => entry.command === command);
    expect(shown, `${page} shows ${command} once`).to.have.length(1);
    const { code, printed, out } = await run(command);
    expect(printed).to.equal(shown[0].output);
    checked.add(`${page}: ${command}`);
    return { code, out };
  }

  describe('docs/guide/cli.md', () => {
    it('check prints a one-line summary and exits 0', async () => {
      expect((await runAsShown('cli.md', 'npx phantom-mcp check dist/server.js')).code).to.equal(0);
    });

    it('list prints the tools with their arguments and the prompts', async () => {
      expect((await runAsShown('cli.md', 'npx phantom-mcp list dist/server.js')).code).to.equal(0);
    });

    it('a TypeScript module is refused in one line, exit 1', async () => {
      expect((await runAsShown('cli.md', 'npx phantom-mcp list src/server.ts')).code).to.equal(1);
    });

    it('call prints progress on stderr and the structured content alone on stdout', async () => {
      const { code, out } = await runAsShown('cli.md', 'WEATHER_API_KEY=demo npx phantom-mcp call dist/server.js forecast --args \'{"city":"Oslo"}\'');
      expect(code).to.equal(0);
      expect(JSON.parse(out)).to.deep.equal({ city: 'Oslo', high: 21, units: 'metric' });
    });

    it('call exits 1 on a ToolError, on invalid arguments and on an unknown tool, with nothing on stdout', async () => {
      for (const command of [
        'npx phantom-mcp call dist/server.js forecast --args \'{"city":"Oslo"}\'',
        'npx phantom-mcp call dist/server.js forecast --args \'{"town":"Oslo"}\'',
        'npx phantom-mcp call dist/server.js outlook',
      ]) {
        const { code, out } = await runAsShown('cli.md', command);
        expect([code, out], command).to.deep.equal([1, '']);
      }
    });

    it('server-json --out writes server.json, and --check finds it up to date', async () => {
      expect((await runAsShown('cli.md', 'npx phantom-mcp server-json dist/server.js --out server.json')).code).to.equal(0);
      expect((await runAsShown('cli.md', 'npx phantom-mcp server-json dist/server.js --check server.json')).code).to.equal(0);
    });

    it('card prints the card for the URL, named by the package\'s mcpName', async () => {
      expect((await runAsShown('cli.md', 'npx phantom-mcp card dist/server.js --url https://weather.acme.example/mcp')).code).to.equal(0);
    });

    it('config prints the Cursor entry: absolute paths, the key as ${env:...}, the default as its value', async () => {
      expect((await runAsShown('cli.md', 'npx phantom-mcp config dist/server.js --client cursor')).code).to.equal(0);
    });
  });

  describe('docs/guide/publishing.md', () => {
    it('server-json prints the server.json the page shows', async () => {
      expect((await runAsShown('publishing.md', 'npx phantom-mcp server-json dist/server.js')).code).to.equal(0);
    });

    it('--check exits 1 with a line per difference when server.json drifted from the code', async () => {
      const file = join(project, 'server.json');
      const committed = JSON.parse(readFileSync(file, 'utf8'));
      committed.version = '1.1.0';
      committed.packages[0].environmentVariables = committed.packages[0].environmentVariables.filter((variable: { name: string }) => variable.name !== 'WEATHER_UNITS');
      writeFileSync(file, JSON.stringify(committed, null, 2));
      expect((await runAsShown('publishing.md', 'npx phantom-mcp server-json dist/server.js --check server.json')).code).to.equal(1);
    });

    it('refuses, listing every problem, without mcpName and with a version range; writes nothing', async () => {
      const file = join(project, 'package.json');
      const original = readFileSync(file, 'utf8');
      const { mcpName: _dropped, ...rest } = JSON.parse(original);
      writeFileSync(file, JSON.stringify({ ...rest, version: '^1.2.0' }, null, 2));
      rmSync(join(project, 'server.json'));
      try {
        expect((await runAsShown('publishing.md', 'npx phantom-mcp server-json dist/server.js --out server.json')).code).to.equal(1);
        expect(() => readFileSync(join(project, 'server.json'))).to.throw(/ENOENT/);
      } finally {
        writeFileSync(file, original);
      }
    });

    it('bundle --manifest-only writes the manifest the page shows, and --check finds it up to date', async () => {
      expect((await runAsShown('publishing.md', 'npx phantom-mcp bundle dist/server.js --manifest-only')).code).to.equal(0);
      expect((await runAsShown('cli.md', 'npx phantom-mcp bundle dist/server.js --manifest-only')).code).to.equal(0);
      expect(JSON.parse(readFileSync(join(project, 'manifest.json'), 'utf8'))).to.deep.equal(jsonBlock('publishing.md', '"manifest_version"'));
      expect((await runAsShown('publishing.md', 'npx phantom-mcp bundle dist/server.js --check manifest.json')).code).to.equal(0);
      expect((await runAsShown('cli.md', 'npx phantom-mcp bundle dist/server.js --check manifest.json')).code).to.equal(0);
    });

    it('bundle --check exits 1 with a line per difference, a tool by its name', async () => {
      const file = join(project, 'manifest.json');
      const manifest = JSON.parse(readFileSync(file, 'utf8'));
      manifest.tools = [];
      manifest.version = '1.1.0';
      writeFileSync(file, JSON.stringify(manifest));
      const { code, printed } = await run('npx phantom-mcp bundle dist/server.js --check manifest.json');
      expect(printed).to.contain(`  version: "1.1.0" in ${SHOWN_PROJECT}/manifest.json, "1.2.0" from the code\n`);
      expect(printed).to.contain(`  tools[forecast]: missing from ${SHOWN_PROJECT}/manifest.json; the code makes {`);
      expect(code).to.equal(1);
    });

    it('install merges into the client\'s file, keeping the other server, with a byte-for-byte backup', async () => {
      const file = join(root, '.cursor', 'mcp.json');
      mkdirSync(join(root, '.cursor'));
      const before = `${JSON.stringify(jsonBlock('publishing.md', '"notes-mcp"'), null, 2)}\n`;
      writeFileSync(file, before);
      const dryRun = await runAsShown('publishing.md', 'npx phantom-mcp install dist/server.js --client cursor --dry-run');
      expect(dryRun.code).to.equal(0);
      expect(readFileSync(file, 'utf8')).to.equal(before);
      expect((await runAsShown('cli.md', 'npx phantom-mcp install dist/server.js --client cursor')).code).to.equal(0);
      expect(readFileSync(`${file}.bak`, 'utf8')).to.equal(before);
      expect(readFileSync(file, 'utf8')).to.equal(dryRun.out);
      const again = await run('npx phantom-mcp install dist/server.js --client cursor');
      expect(again.printed).to.contain('"weather" is already in /home/ada/.cursor/mcp.json as it would be written: nothing changed.');
    });

    it('listen() serves the card at /mcp/server-card: 200 with an ETag, 304 for that tag, 405 for a POST', async () => {
      const listener = await listenWithCard(0);
      try {
        const at = `http://127.0.0.1:${listener.port}/mcp/server-card`;
        const first = await fetch(at);
        expect(first.status).to.equal(200);
        expect(first.headers.get('content-type')).to.equal('application/mcp-server-card+json');
        expect(first.headers.get('cache-control')).to.equal('public, max-age=3600');
        expect(first.headers.get('access-control-allow-origin')).to.equal('*');
        const card = await first.json() as { name: string; remotes: Array<{ url: string }> };
        expect(card.name).to.equal('io.github.acme/weather');
        expect(card.remotes.map((remote) => remote.url)).to.deep.equal(['https://weather.acme.example/mcp']);
        const again = await fetch(at, { headers: { 'If-None-Match': first.headers.get('etag')! } });
        expect(again.status).to.equal(304);
        const post = await fetch(at, { method: 'POST' });
        expect([post.status, post.headers.get('allow')]).to.deep.equal([405, 'GET, HEAD, OPTIONS']);
      } finally {
        await listener.close();
        await exampleServer.close();
      }
    });
  });

  describe('both pages', () => {
    it('every command shown with its output was run above, or is named as shown only', () => {
      const shown = ['cli.md', 'publishing.md'].flatMap((page) => shownCommands(page).map(({ command }) => ({ page, command })));
      const unchecked = shown.filter(({ page, command }) => !checked.has(`${page}: ${command}`) && SHOWN_NOT_RUN[command] === undefined);
      expect(unchecked).to.deep.equal([]);
      expect(shown.length).to.be.greaterThan(15);
    });
  });
});
