import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { expect } from 'chai';

const ROOT = resolve(__dirname, '..', '..', '..');

/**
 * What a fresh process loaded after `script` ran: the packages under node_modules, by name. The
 * script runs in a child, since this process has loaded everything other specs needed; what it
 * sets as `globalThis.ready` is awaited first.
 */
function packagesLoadedBy(script: string): string[] {
  const probe = `${script}
;setImmediate(async () => {
  await globalThis.ready;
  const names = new Set(Object.keys(require.cache).map((file) => /node_modules\\/((?:@[^/]+\\/)?[^/]+)/.exec(file)?.[1]).filter(Boolean));
  process.stdout.write(JSON.stringify([...names].sort()));
  process.exit(0);
});`;
  return JSON.parse(execFileSync(process.execPath, ['-e', probe], { cwd: ROOT, encoding: 'utf8' })) as string[];
}

const SERVER = `require('reflect-metadata');
const { PhantomServer, Tool } = require('./dist/lib');
class Echo { echo(args) { return args.text; } }
Reflect.decorate([Tool({ description: 'Echo', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } })], Echo.prototype, 'echo', Object.getOwnPropertyDescriptor(Echo.prototype, 'echo'));
const server = new PhantomServer({ name: 'cold', version: '1.0.0', providers: [Echo] });
globalThis.ready = server.handle('tools/call', { name: 'echo', arguments: { text: 'hi' } }).then((outcome) => {
  if (outcome.result?.content?.[0]?.text !== 'hi') throw new Error(JSON.stringify(outcome));
});`;

/**
 * A fresh process pays for every package it loads before its first call (serverless and
 * scale-to-zero deployments pay it on every cold start): the packages only some servers need are
 * loaded on first use.
 */
describe('packages only some servers need, in a fresh process', () => {
  it('a server that serves a tool, without OAuth or Skills, loads neither jose nor yaml', () => {
    const loaded = packagesLoadedBy(SERVER);
    expect(loaded, loaded.join(', ')).to.include('class-validator');
    expect(loaded).not.to.include('jose');
    expect(loaded).not.to.include('yaml');
  });

  it('verifying a token loads jose, and reading a skill loads yaml, when first needed', () => {
    const loaded = packagesLoadedBy(`${SERVER}
const { parseFrontMatter } = require('./dist/lib/extensions/skills/front-matter');
if (!('frontmatter' in parseFrontMatter('---\\nname: a\\ndescription: b\\n---\\n'))) throw new Error('front matter not read');
const { verifyJwt } = require('./dist/lib/auth/jwt-verifier');
const served = globalThis.ready;
globalThis.ready = served.then(() => verifyJwt('not.a.jwt', async () => { throw new Error('no key'); }, { issuer: 'i', audience: 'a', algorithms: ['ES256'], clockToleranceSec: 0, now: Date.now, scopesOf: () => [] }))
  .then(() => { throw new Error('a malformed token was accepted'); }, (error) => { if (error.name !== 'TokenRejectedError') throw error; });`);
    expect(loaded).to.include.members(['jose', 'yaml']);
  });
});
