import { readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { BundleRefusal } from './bundle-refusal';
import { installed } from './production-dependencies';
import type { ServerFacts } from './server-facts';

/** The folder of the bundle that holds the module's package (with its node_modules). */
export const SERVER_FOLDER = 'server';
/** The bundle's icon, when one is given. */
export const ICON_FILE = 'icon.png';
/** The script node loads before the server when the server declares environment variables (see `blankSettingsScript`). */
export const PRELOAD_FILE = 'blank-settings.cjs';

/** Where the parts of a bundle are, as paths in the bundle (forward slashes). */
export interface BundleLayout {
  /** The module, e.g. `server/dist/server.js`: the manifest's `entry_point`. */
  readonly module: string;
  /** The phantom-mcp binary the package depends on, which serves the module over stdio. */
  readonly cli: string;
  /** The preload script, when the server declares environment variables. */
  readonly preload?: string;
  /** The icon, when one is given. */
  readonly icon?: string;
}

/**
 * Where the module, the binary that serves it and the extras go. The bundle runs the module as
 * `phantom-mcp serve` does, with the phantom-mcp the package itself ships: so that must be one of
 * its `dependencies` (a devDependency is not bundled), and then it sits in the bundle's top
 * node_modules, where the module finds it too.
 */
export function bundleLayout(facts: ServerFacts, options: { readonly icon?: boolean } = {}): BundleLayout {
  const pkg = facts.package!;
  const dependencies = pkg.json.dependencies as Record<string, unknown> | undefined;
  if (typeof dependencies !== 'object' || dependencies === null || !Object.hasOwn(dependencies, 'phantom-mcp')) {
    const where = Object.hasOwn((pkg.json.devDependencies as object | undefined) ?? {}, 'phantom-mcp') ? ' (it is in devDependencies, which a bundle leaves out)' : '';
    throw new BundleRefusal(`phantom-mcp is not in the "dependencies" of ${pkg.file}${where}: the bundle serves the module with the phantom-mcp the package ships`);
  }
  const framework = installed(pkg.dir, 'phantom-mcp');
  if (framework === undefined) throw new BundleRefusal(`phantom-mcp is not installed for ${pkg.dir}: run npm install`);
  const bin = binOf(JSON.parse(readFileSync(join(framework, 'package.json'), 'utf8')) as Record<string, unknown>);
  if (bin === undefined) throw new BundleRefusal(`the phantom-mcp installed at ${framework} has no phantom-mcp binary: update it`);
  return {
    module: `${SERVER_FOLDER}/${relative(pkg.dir, facts.module).split(sep).join('/')}`,
    cli: `${SERVER_FOLDER}/node_modules/phantom-mcp/${bin.replace(/^\.\//, '')}`,
    ...(facts.environment.length > 0 ? { preload: PRELOAD_FILE } : {}),
    ...(options.icon ? { icon: ICON_FILE } : {}),
  };
}

function binOf(json: Record<string, unknown>): string | undefined {
  if (typeof json.bin === 'string') return json.bin;
  const named = (json.bin as Record<string, unknown> | undefined)?.['phantom-mcp'];
  return typeof named === 'string' ? named : undefined;
}
