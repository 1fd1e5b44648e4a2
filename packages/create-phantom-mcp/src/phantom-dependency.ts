import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { PhantomSource } from './options';

/** Where a project keeps the phantom-mcp tarball it depends on, relative to the project. */
export const VENDOR = 'vendor';

/** A source the generator cannot use; its message says why and what to do. */
export class PhantomSourceError extends Error {
  override readonly name = 'PhantomSourceError';
}

/** A phantom-mcp ready to go into a project: a registry range, or a tarball to copy into vendor/. */
export type PhantomDependency = { readonly range: string } | { readonly tarball: string };

/**
 * Resolves where phantom-mcp comes from before anything is written: a registry range as it is;
 * a tarball as it is, once it is found; a checkout packed with `npm pack` into a temporary folder.
 */
export function preparePhantom(source: PhantomSource): PhantomDependency {
  if (source.kind === 'registry') return { range: source.range };
  if (!existsSync(source.path)) throw new PhantomSourceError(`--phantom: ${source.path} does not exist`);
  if (statSync(source.path).isDirectory()) return { tarball: pack(source.path) };
  if (!source.path.endsWith('.tgz')) throw new PhantomSourceError(`--phantom: ${source.path} is neither a phantom-mcp checkout nor a .tgz made by npm pack`);
  return { tarball: source.path };
}

/** Copies the tarball, if any, into `<project>/vendor/`; the package.json value that names it. */
export function vendorPhantom(dependency: PhantomDependency, project: string): { spec: string; written?: string } {
  if ('range' in dependency) return { spec: dependency.range };
  const file = basename(dependency.tarball);
  mkdirSync(join(project, VENDOR), { recursive: true });
  copyFileSync(dependency.tarball, join(project, VENDOR, file));
  return { spec: `file:${VENDOR}/${file}`, written: `${VENDOR}/${file}` };
}

/** `npm pack` of a built phantom-mcp checkout, into a temporary folder: the tarball's path. */
function pack(checkout: string): string {
  const manifest = join(checkout, 'package.json');
  const name = existsSync(manifest) ? (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name : undefined;
  if (name !== 'phantom-mcp') throw new PhantomSourceError(`--phantom: ${checkout} is no phantom-mcp checkout (its package.json is not phantom-mcp's)`);
  if (!existsSync(join(checkout, 'dist', 'lib', 'index.js'))) throw new PhantomSourceError(`--phantom: ${checkout} is not built: run npm run build there first (npm run create does)`);
  const into = mkdtempSync(join(tmpdir(), 'create-phantom-mcp-'));
  process.once('exit', () => rmSync(into, { recursive: true, force: true }));
  const windows = process.platform === 'win32';
  const out = execFileSync(windows ? 'npm.cmd' : 'npm', ['pack', '--json', '--pack-destination', into], { cwd: checkout, encoding: 'utf8', shell: windows, stdio: ['ignore', 'pipe', 'inherit'] });
  const [packed] = JSON.parse(out) as Array<{ filename: string }>;
  return join(into, packed.filename);
}
