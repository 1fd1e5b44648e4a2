import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { HTTP_CONTENDERS, type HttpContenderId } from './contenders';

/**
 * The exact installed version of a package, from its own `package.json`, found the way Node
 * resolves it from here (walking up the `node_modules` folders); `undefined` when it is absent.
 * Read from disk rather than resolved: not every package exports its `package.json`.
 */
export function installedVersion(name: string, from: string = __dirname): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    const manifest = join(dir, 'node_modules', name, 'package.json');
    if (existsSync(manifest)) return (JSON.parse(readFileSync(manifest, 'utf8')) as { version?: string }).version;
    if (dirname(dir) === dir) return undefined;
  }
}

/** Per contender that names its packages, each package's installed version: for the results. */
export function contenderVersions(): Partial<Record<HttpContenderId, Readonly<Record<string, string>>>> {
  const out: Partial<Record<HttpContenderId, Record<string, string>>> = {};
  for (const { id, packages } of HTTP_CONTENDERS) {
    if (!packages?.length) continue;
    out[id] = Object.fromEntries(packages.map((name) => [name, installedVersion(name) ?? 'not installed']));
  }
  return out;
}
