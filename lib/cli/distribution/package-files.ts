import { basename, relative, sep } from 'node:path';
import { BundleRefusal } from './bundle-refusal';
import { walkFiles, type FoundFile } from './file-walk';
import type { PackageFacts } from './server-facts';

/**
 * What a bundle never takes from the module's package: TypeScript (sources and declarations:
 * the bundle runs the compiled .js), source maps, build info, `.env` files (secrets), bundles
 * already built, and the folders node_modules (dependencies are copied on their own) and .git.
 */
const NEVER = [/\.[cm]?tsx?$/, /\.map$/, /\.tsbuildinfo$/, /^\.env(\..*)?$/, /\.mcpb$/];
const NEVER_FOLDERS = new Set(['node_modules', '.git']);

/** What npm publishes whatever `files` says, at the package's root. */
const ALWAYS = /^(package\.json|(readme|license|licence)(\..*)?)$/i;

/**
 * The files of the module's package that go into the bundle: those npm would publish (see
 * `publishedFiles`), taking, when package.json has no `files`, the top folder holding the
 * module (all of the package when the module sits at its root). Refuses when the module itself
 * would not be among them.
 */
export function packageFiles(pkg: PackageFacts, module: string): FoundFile[] {
  const own = relative(pkg.dir, module).split(sep).join('/');
  const files = publishedFiles(pkg.dir, pkg.json, [own.includes('/') ? own.slice(0, own.indexOf('/')) : '**']);
  if (!files.some((file) => file.relative === own)) {
    const listed = listedFiles(pkg.json);
    const why = listed ? `the package.json "files" (${listed.join(', ')}) leaves it out` : 'it is of a kind a bundle leaves out';
    throw new BundleRefusal(`${module} would not be in the bundle: ${why}`);
  }
  return files;
}

/**
 * The files of the package in `dir` that npm would publish: those its `files` lists (paths or
 * globs, a folder meaning all below it, `!` excluding), else those `unlisted` names; always
 * package.json, README, LICENSE, `main` and the binaries. Never what `NEVER` names.
 */
export function publishedFiles(dir: string, json: Readonly<Record<string, unknown>>, unlisted: readonly string[]): FoundFile[] {
  const listed = listedFiles(json);
  const entries = listed ?? unlisted;
  const include = [...entries.filter((entry) => !entry.startsWith('!')), ...entryPoints(json)].map(pattern);
  const exclude = entries.filter((entry) => entry.startsWith('!')).map((entry) => pattern(entry.slice(1)));
  const taken = (path: string) => !exclude.some((rule) => rule.test(path)) && (ALWAYS.test(path) || include.some((rule) => rule.test(path)));
  return walkFiles(dir, (path, isFolder) => (isFolder ? NEVER_FOLDERS.has(basename(path)) : NEVER.some((rule) => rule.test(basename(path))) || !taken(path)));
}

function listedFiles(json: Readonly<Record<string, unknown>>): string[] | undefined {
  return Array.isArray(json.files) ? json.files.filter((entry): entry is string => typeof entry === 'string') : undefined;
}

/** `main` and the `bin` files, which npm publishes whatever `files` says. */
function entryPoints(json: Readonly<Record<string, unknown>>): string[] {
  const bin = typeof json.bin === 'string' ? [json.bin] : typeof json.bin === 'object' && json.bin !== null ? Object.values(json.bin) : [];
  return [json.main, ...bin].filter((entry): entry is string => typeof entry === 'string').map((entry) => entry.replace(/^\.\//, ''));
}

/** A `files` entry as a test of a path: the entry itself, or anything below it. */
function pattern(entry: string): RegExp {
  const path = entry.replace(/^\.\//, '').replace(/\/+$/, '');
  let source = '';
  for (let at = 0; at < path.length; at++) {
    const char = path[at];
    if (char === '*' && path[at + 1] === '*') {
      const slash = path[at + 2] === '/';
      source += slash ? '(?:.*/)?' : '.*';
      at += slash ? 2 : 1;
    } else if (char === '*') source += '[^/]*';
    else if (char === '?') source += '[^/]';
    else source += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}(/.*)?$`);
}
