import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { BundleRefusal } from './bundle-refusal';

/** An installed package the bundle carries, and where it goes under the bundled package. */
export interface PlacedPackage {
  readonly name: string;
  readonly version: string;
  /** Its real folder on this machine (links resolved). */
  readonly dir: string;
  /** Its folder in the bundle, under the bundled package: `node_modules/a`, or `node_modules/a/node_modules/b`. */
  readonly at: string;
}

/** What a package needs at run time: `dependencies`, and the optional and peer ones when installed. */
const NEEDED = ['dependencies', 'optionalDependencies', 'peerDependencies'] as const;

interface Placement extends PlacedPackage {
  /** `name@version`: a package of the same name and version found elsewhere is the same one. */
  readonly key: string;
  /** The package whose node_modules holds this one (the top for the top node_modules). */
  readonly parent?: Placement;
  readonly json: Readonly<Record<string, unknown>>;
}

/**
 * The production dependencies of the package in `root` (its `dependencies`, never its
 * `devDependencies`), followed transitively, each found as Node finds it from the package that
 * needs it (up the folders' node_modules, from its real folder), and laid out so that Node finds
 * the same from the bundle: each in the top node_modules unless another version holds that
 * place on the way up, then in its dependent's own node_modules.
 *
 * Breadth first, so a package's own node_modules is filled before anything under it looks up:
 * no later placement can hide what an earlier lookup found. A missing `dependencies` entry is
 * refused (the install is broken); a missing optional or peer one is left out, as Node would.
 */
export function productionDependencies(root: string): PlacedPackage[] {
  const top: Placement = { name: '', version: '', dir: realpathSync(root), at: '', key: '', json: readJson(join(root, 'package.json')) };
  const slots = new Map<string, Placement>();
  const queue: Placement[] = [top];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    const dependent = next;
    for (const [name, required] of needs(dependent)) {
      const dir = installed(dependent.dir, name);
      if (dir === undefined) {
        if (required) throw new BundleRefusal(`${dependent === top ? 'the package' : `${dependent.name}@${dependent.version}`} depends on ${name}, which is not installed: run npm install`);
        continue;
      }
      const json = readJson(join(dir, 'package.json'));
      const version = typeof json.version === 'string' ? json.version : '';
      const key = version === '' ? dir : `${name}@${version}`;
      const found = firstOnTheWayUp(slots, dependent, name);
      if (found?.key === key) continue;
      const at = join(found === undefined ? '' : dependent.at, 'node_modules', name).split('\\').join('/');
      // What a file of it looks up through: its own node_modules, then those of the folders holding it.
      const placed: Placement = { name, version, dir, at, key, parent: found === undefined ? top : dependent, json };
      slots.set(at, placed);
      queue.push(placed);
    }
  }
  return [...slots.values()].map(({ name, version, dir, at }) => ({ name, version, dir, at }));
}

/** The package's run-time needs, by name: `true` when it cannot do without (a plain dependency). */
function needs(dependent: Placement): Map<string, boolean> {
  const found = new Map<string, boolean>();
  for (const field of NEEDED) {
    const listed = dependent.json[field];
    if (typeof listed !== 'object' || listed === null) continue;
    for (const name of Object.keys(listed)) if (!found.has(name)) found.set(name, field === 'dependencies');
  }
  // A dependency listed as optional too is optional (npm's reading).
  const optional = dependent.json.optionalDependencies;
  if (typeof optional === 'object' && optional !== null) for (const name of Object.keys(optional)) found.set(name, false);
  return found;
}

/** What `require(name)` from a file in `from` finds: its real folder, or undefined. */
export function installed(from: string, name: string): string | undefined {
  for (let at = from; ; at = dirname(at)) {
    if (basename(at) !== 'node_modules') {
      const candidate = join(at, 'node_modules', name);
      if (existsSync(join(candidate, 'package.json'))) return realpathSync(candidate);
    }
    if (dirname(at) === at) return undefined;
  }
}

/** The package in the bundle that a file of `dependent` would find for `name`, looking up from its folder. */
function firstOnTheWayUp(slots: ReadonlyMap<string, Placement>, dependent: Placement, name: string): Placement | undefined {
  for (let holder: Placement | undefined = dependent; holder !== undefined; holder = holder.parent) {
    const found = slots.get(join(holder.at, 'node_modules', name).split('\\').join('/'));
    if (found !== undefined) return found;
  }
  return undefined;
}

function readJson(file: string): Readonly<Record<string, unknown>> {
  return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
}
