import { readFileSync } from 'node:fs';
import { basename, join, sep } from 'node:path';
import { blankSettingsScript } from './blank-settings';
import { SERVER_FOLDER, type BundleLayout } from './bundle-layout';
import { walkFiles } from './file-walk';
import type { McpbManifest } from './mcpb-manifest';
import { packageFiles, publishedFiles } from './package-files';
import { productionDependencies, type PlacedPackage } from './production-dependencies';
import type { ServerFacts } from './server-facts';

/** One file of a bundle: its path in the archive, its mode, its size and how to read it. */
export interface BundleFile {
  readonly path: string;
  readonly mode: number;
  readonly size: number;
  readonly read: () => Buffer;
  /** The dependency it belongs to (`name@version`), for the size report. */
  readonly dependency?: string;
}

/** What goes into an installed dependency's folder: all npm put there but its own node_modules (laid out apart) and source maps. */
const SKIPPED_IN_DEPENDENCIES = (path: string, isFolder: boolean) => (isFolder ? path === 'node_modules' : basename(path).endsWith('.map'));

/**
 * The files of a dependency: as installed, or, for a linked one (a workspace, `npm link`: its
 * real folder is a checkout, not in a node_modules), the files it would publish.
 */
function dependencyFiles(placed: PlacedPackage) {
  if (placed.dir.split(sep).includes('node_modules')) return walkFiles(placed.dir, SKIPPED_IN_DEPENDENCIES);
  return publishedFiles(placed.dir, JSON.parse(readFileSync(join(placed.dir, 'package.json'), 'utf8')) as Record<string, unknown>, ['**']);
}

/**
 * Every file of the bundle, sorted by path: manifest.json, the icon and the preload at the
 * top; under server/ the module's package (its published files) and its production
 * dependencies under server/node_modules, read from where they are installed (links followed).
 * A dependency's run-time needs that are installed go in too, optional peers included: the
 * bundle then behaves as the project does.
 */
export function bundleContents(facts: ServerFacts, layout: BundleLayout, manifest: McpbManifest, icon?: Buffer): BundleFile[] {
  const pkg = facts.package!;
  const made = (path: string, bytes: Buffer): BundleFile => ({ path, mode: 0o644, size: bytes.length, read: () => bytes });
  const files: BundleFile[] = [made('manifest.json', Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`))];
  if (layout.icon && icon) files.push(made(layout.icon, icon));
  if (layout.preload) files.push(made(layout.preload, Buffer.from(blankSettingsScript(facts.environment.map((variable) => variable.name)))));
  for (const file of packageFiles(pkg, facts.module)) {
    files.push({ path: `${SERVER_FOLDER}/${file.relative}`, mode: file.mode, size: file.size, read: () => readFileSync(file.absolute) });
  }
  for (const placed of productionDependencies(pkg.dir)) {
    for (const file of dependencyFiles(placed)) {
      files.push({ path: `${SERVER_FOLDER}/${placed.at}/${file.relative}`, mode: file.mode, size: file.size, read: () => readFileSync(file.absolute), dependency: `${placed.name}@${placed.version}` });
    }
  }
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** How many of the largest dependencies and files the size report names. */
export const REPORTED_LARGEST = 5;

/** The size report: packed and unpacked size, file count, the largest dependencies and files. */
export function sizeReport(files: readonly BundleFile[], packed: number, largest = REPORTED_LARGEST): string {
  const unpacked = files.reduce((sum, file) => sum + file.size, 0);
  const byDependency = new Map<string, number>();
  for (const file of files) if (file.dependency) byDependency.set(file.dependency, (byDependency.get(file.dependency) ?? 0) + file.size);
  const dependencies = [...byDependency].sort((a, b) => b[1] - a[1]).slice(0, largest);
  const biggest = [...files].sort((a, b) => b.size - a.size).slice(0, largest);
  return [
    `  packed      ${bytes(packed)}`,
    `  unpacked    ${bytes(unpacked)}`,
    `  files       ${files.length} (${byDependency.size} dependencies)`,
    `  largest dependencies:`,
    ...dependencies.map(([name, size]) => `    ${bytes(size).padStart(9)}  ${name}`),
    `  largest files:`,
    ...biggest.map((file) => `    ${bytes(file.size).padStart(9)}  ${file.path}`),
  ].join('\n');
}

function bytes(count: number): string {
  if (count < 1024) return `${count} B`;
  if (count < 1024 * 1024) return `${(count / 1024).toFixed(1)} kB`;
  return `${(count / 1024 / 1024).toFixed(1)} MB`;
}
