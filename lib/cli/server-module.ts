import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as ownFramework from '../index';
import type { PhantomServer } from '../index';

type Framework = typeof ownFramework;

/** The module cannot be loaded, or exports nothing a server can be had from. */
export class ServerModuleError extends Error {
  override readonly name = 'ServerModuleError';
}

export interface LoadOptions {
  /** A named export to take instead of looking (`--export`). */
  readonly exportName?: string;
}

/**
 * The server a compiled module provides, looked for in this order (or only `exportName`):
 * its default export, a `PhantomServer`, or a function returning one (sync or async); a named
 * export that is a `PhantomServer` (only one may be); a named `createServer` function; else the
 * exported provider classes (those with `@Tool`, `@Resource` or `@Prompt` members), served under
 * the module's file name and the version of its nearest package.json.
 *
 * A server built here is built by the phantom-mcp the module itself imports, when it resolves
 * one: its decorators, errors and server then come from one copy (a `ToolError` of another copy
 * would not be recognised as one).
 */
export async function loadServer(given: string, cwd: string, options: LoadOptions = {}): Promise<PhantomServer> {
  const path = modulePath(given, cwd);
  const exported = await importModule(path);
  const framework = frameworkOf(path);
  const found = options.exportName === undefined ? await serverAmong(exported, framework, path) : await serverFrom(exported[options.exportName], `export ${options.exportName}`, path, exported);
  if (found) return found;
  throw new ServerModuleError(
    `${path} exports no PhantomServer, no function returning one (default or createServer) and no class with @Tool, @Resource or @Prompt members`,
  );
}

/** What every command takes, said whenever it is given something else. */
const EXPECTED = 'expected a compiled module (a .js file built with tsc) that exports a PhantomServer, a function returning one, or provider classes';

/**
 * The absolute path of the module a command is given, or a `ServerModuleError` of one line
 * saying what is wrong with it and what was expected: TypeScript (source or declarations), a
 * directory, or nothing at all, unless `mayBeMissing` (`dev` builds it first).
 */
export function modulePath(given: string, cwd: string, options: { readonly mayBeMissing?: boolean } = {}): string {
  const path = resolve(cwd, given);
  if (/\.d\.[cm]?ts$/.test(path)) throw new ServerModuleError(`${path} is a TypeScript declaration file, which holds no code; ${EXPECTED} (the .js beside it)`);
  if (/\.[cm]?tsx?$/.test(path)) {
    throw new ServerModuleError(`${path}: point at the compiled .js, built with tsc (tsx and esbuild drop the decorator metadata the framework reads)`);
  }
  const stats = statSync(path, { throwIfNoEntry: false });
  if (stats === undefined) {
    if (options.mayBeMissing) return path;
    throw new ServerModuleError(`${path}: no such file; ${EXPECTED}`);
  }
  if (stats.isDirectory()) throw new ServerModuleError(`${path} is a directory; ${EXPECTED}`);
  return path;
}

/** Whether `error` lists definition problems (a `DefinitionError` of any copy of the framework). */
export function definitionProblems(error: unknown): readonly string[] | undefined {
  if (!(error instanceof Error) || error.name !== 'DefinitionError') return undefined;
  const problems = (error as { problems?: unknown }).problems;
  return Array.isArray(problems) ? problems.map(String) : undefined;
}

type Exports = Record<string, unknown>;

/** CommonJS through require (what tsc emits by default); an ES module through import(). */
async function importModule(path: string): Promise<Exports> {
  try {
    return asExports(require(path));
  } catch (error) {
    if ((error as { code?: string }).code !== 'ERR_REQUIRE_ESM' && (error as { code?: string }).code !== 'ERR_REQUIRE_ASYNC_MODULE') throw error;
    return asExports(await import(pathToFileURL(path).href));
  }
}

/** `module.exports = server` (or a function) stands for a default export. */
function asExports(value: unknown): Exports {
  if (typeof value === 'object' && value !== null && !isServer(value)) return value as Exports;
  return { default: value };
}

/** The phantom-mcp the module resolves (its own install), or this one. */
function frameworkOf(path: string): Framework {
  try {
    const theirs = createRequire(path)('phantom-mcp') as Partial<Framework>;
    if (typeof theirs.PhantomServer === 'function') return theirs as Framework;
  } catch {
    // The module does not import phantom-mcp by name (a relative import, a bundle): ours serves.
  }
  return ownFramework;
}

async function serverAmong(exported: Exports, framework: Framework, path: string): Promise<PhantomServer | undefined> {
  if (exported.default !== undefined) {
    const server = await serverFrom(exported.default, 'the default export', path, exported, framework);
    if (server) return server;
  }
  const named = Object.entries(exported).filter(([name]) => name !== 'default');
  const servers = named.filter(([, value]) => isServer(value));
  if (servers.length > 1) throw new ServerModuleError(`${path} exports several servers (${servers.map(([name]) => name).join(', ')}): pick one with --export <name>`);
  if (servers.length === 1) return servers[0][1] as PhantomServer;
  if (typeof exported.createServer === 'function' && !isClass(exported.createServer)) {
    return serverFrom(exported.createServer, 'createServer()', path, exported, framework);
  }
  const providers = named.map(([, value]) => value).filter((value) => ownFramework.isProviderClass(value));
  return providers.length ? buildServer(providers, path, framework) : undefined;
}

/** One exported value as a server: a server, a factory's (awaited) result, or provider classes. */
async function serverFrom(value: unknown, label: string, path: string, exported: Exports, framework = frameworkOf(path)): Promise<PhantomServer | undefined> {
  if (value === undefined && label.startsWith('export ')) throw new ServerModuleError(`${path} has no ${label}; it exports ${Object.keys(exported).join(', ') || 'nothing'}`);
  if (isServer(value)) return value;
  if (ownFramework.isProviderClass(value)) return buildServer([value], path, framework);
  if (Array.isArray(value) && value.length && value.every((item) => ownFramework.isProviderClass(item))) return buildServer(value, path, framework);
  if (typeof value === 'function' && !isClass(value)) {
    const made: unknown = await (value as () => unknown)();
    if (!isServer(made)) throw new ServerModuleError(`${path}: ${label === 'the default export' ? 'the default export()' : label} returned ${describe(made)}, not a PhantomServer`);
    return made;
  }
  if (label.startsWith('export ')) throw new ServerModuleError(`${path}: ${label} is ${describe(value)}, not a PhantomServer, a function returning one or provider classes`);
  return undefined;
}

function buildServer(providers: readonly unknown[], path: string, framework: Framework): PhantomServer {
  const name = basename(path, extname(path));
  return new framework.PhantomServer({ name, version: packageVersion(dirname(path)), providers: providers as never });
}

/** The version in the nearest package.json above `dir` (0.0.0 when there is none). */
function packageVersion(dir: string): string {
  for (let at = dir; ; at = dirname(at)) {
    const file = join(at, 'package.json');
    if (existsSync(file)) {
      const version = (JSON.parse(readFileSync(file, 'utf8')) as { version?: unknown }).version;
      return typeof version === 'string' ? version : '0.0.0';
    }
    if (dirname(at) === at) return '0.0.0';
  }
}

/**
 * A server by its shape rather than `instanceof`: the module may hold another copy of the
 * framework than the CLI (a global install, a linked package).
 */
function isServer(value: unknown): value is PhantomServer {
  const candidate = value as Partial<Record<keyof PhantomServer, unknown>> | null | undefined;
  return typeof candidate === 'object' && candidate !== null
    && typeof candidate.handle === 'function' && typeof candidate.connect === 'function'
    && typeof candidate.listen === 'function' && typeof candidate.close === 'function'
    && typeof candidate.info === 'object';
}

/** tsc (ES2015 and later) emits classes as `class`: telling them from factories needs no call. */
function isClass(value: unknown): boolean {
  return typeof value === 'function' && /^class[\s{]/.test(Function.prototype.toString.call(value));
}

function describe(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (typeof value === 'function') return `a function ${value.name || '(anonymous)'}`;
  if (typeof value === 'object') return `an object (${Object.keys(value).slice(0, 5).join(', ') || 'no keys'})`;
  return `a ${typeof value}`;
}
