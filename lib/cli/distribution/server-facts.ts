import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { EnvironmentVariable, Implementation } from '../../index';
import { loadServer, modulePath } from '../server-module';
import { listAll, type ServerLists } from '../server-lists';

/** The package a module belongs to: its nearest `package.json`, parsed, with the fields distribution reads. */
export interface PackageFacts {
  /** The folder of the `package.json`. */
  readonly dir: string;
  /** The `package.json` itself (absolute path). */
  readonly file: string;
  /** The whole document, as parsed. */
  readonly json: Readonly<Record<string, unknown>>;
  readonly name?: string;
  readonly version?: string;
  readonly description?: string;
  /** The MCP registry name the package claims (`mcpName`): the registry checks it against `server.json`'s `name`. */
  readonly mcpName?: string;
  /** The package's binaries, by name (a string `bin` is named after the package). */
  readonly bin: Readonly<Record<string, string>>;
  /** `engines.node`, when given. */
  readonly nodeEngines?: string;
  /** `repository`, as an object (a string one is taken as its URL). */
  readonly repository?: { readonly type?: string; readonly url: string; readonly directory?: string };
  readonly homepage?: string;
  readonly license?: string;
  /** `author`, as an object (a string one is parsed as `Name <email> (url)`). */
  readonly author?: { readonly name: string; readonly email?: string; readonly url?: string };
}

/** Everything a compiled module's server declares, and the package it ships in: what the distribution commands write from. */
export interface ServerFacts {
  /** The module's absolute path. */
  readonly module: string;
  /** The named export the server was taken from (`--export`), if one was named. */
  readonly exportName?: string;
  /** `serverInfo`: name, version, title, description, icons, websiteUrl. */
  readonly info: Implementation;
  /** The environment variables it declares it reads. */
  readonly environment: readonly EnvironmentVariable[];
  /** Everything it lists (every page of tools, resources, templates and prompts). */
  readonly lists: ServerLists;
  /** The module's nearest `package.json`, if there is one. */
  readonly package?: PackageFacts;
}

/** Loads the module's server, reads what it declares and lists, closes it. */
export async function serverFacts(given: string, cwd: string, options: { readonly exportName?: string } = {}): Promise<ServerFacts> {
  const module = modulePath(given, cwd);
  const server = await loadServer(module, cwd, options);
  try {
    const lists = await listAll(server);
    // A module built against an older copy of the framework declares no environment.
    const environment = (server as { environment?: readonly EnvironmentVariable[] }).environment ?? [];
    const found = nearestPackage(dirname(module));
    return { module, ...(options.exportName === undefined ? {} : { exportName: options.exportName }), info: server.info, environment, lists, ...(found ? { package: found } : {}) };
  } finally {
    await server.close();
  }
}

/** The nearest `package.json` at or above `dir`, or `undefined` when there is none. */
export function nearestPackage(dir: string): PackageFacts | undefined {
  for (let at = dir; ; at = dirname(at)) {
    const file = join(at, 'package.json');
    if (existsSync(file)) return packageFacts(file);
    if (dirname(at) === at) return undefined;
  }
}

/** Reads one `package.json`. */
export function packageFacts(file: string): PackageFacts {
  const json = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  const text = (key: string) => (typeof json[key] === 'string' ? json[key] : undefined);
  const name = text('name');
  const engines = json.engines as { node?: unknown } | undefined;
  return definedOnly({
    dir: dirname(file), file, json, name, version: text('version'), description: text('description'), mcpName: text('mcpName'),
    bin: binaries(json.bin, name), nodeEngines: typeof engines?.node === 'string' ? engines.node : undefined,
    repository: repositoryOf(json.repository), homepage: text('homepage'), license: text('license'), author: authorOf(json.author),
  }) as PackageFacts;
}

function binaries(bin: unknown, name: string | undefined): Record<string, string> {
  if (typeof bin === 'string') return name === undefined ? {} : { [name.replace(/^@[^/]+\//, '')]: bin };
  if (typeof bin !== 'object' || bin === null) return {};
  return Object.fromEntries(Object.entries(bin).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

function repositoryOf(value: unknown): PackageFacts['repository'] {
  if (typeof value === 'string') return { url: value };
  if (typeof value !== 'object' || value === null) return undefined;
  const { type, url, directory } = value as Record<string, unknown>;
  if (typeof url !== 'string') return undefined;
  return definedOnly({ type: typeof type === 'string' ? type : undefined, url, directory: typeof directory === 'string' ? directory : undefined }) as PackageFacts['repository'];
}

/** `Name <email> (url)`, each part but the name optional. */
const PERSON = /^\s*([^<(]*?)\s*(?:<([^>]*)>)?\s*(?:\(([^)]*)\))?\s*$/;

function authorOf(value: unknown): PackageFacts['author'] {
  if (typeof value === 'string') {
    const [, name = '', email, url] = PERSON.exec(value) ?? [];
    return name === '' ? undefined : definedOnly({ name, email, url }) as PackageFacts['author'];
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { name, email, url } = value as Record<string, unknown>;
  if (typeof name !== 'string') return undefined;
  return definedOnly({ name, email: typeof email === 'string' ? email : undefined, url: typeof url === 'string' ? url : undefined }) as PackageFacts['author'];
}

function definedOnly<T extends Record<string, unknown>>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as T;
}
