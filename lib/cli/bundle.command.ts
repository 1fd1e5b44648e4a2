import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError, valueFlag } from './arguments';
import { EXIT, type CliIo, type Command } from './command';
import { bundleContents, sizeReport } from './distribution/bundle-contents';
import { bundleLayout } from './distribution/bundle-layout';
import { BundleRefusal } from './distribution/bundle-refusal';
import { describeDifference, jsonDifferences } from './distribution/json-differences';
import { mcpbManifest, type McpbManifest } from './distribution/mcpb-manifest';
import { pngIcon } from './distribution/png-icon';
import { serverFacts } from './distribution/server-facts';
import { zipArchive } from './distribution/zip-archive';

export const bundleCommand: Command = {
  name: 'bundle',
  summary: 'build a desktop bundle (.mcpb) a client installs and runs over stdio, or check its manifest',
  usage: `Usage: phantom-mcp bundle <module> [--out <file>] [--icon <png>] [--manifest-only] [--check <manifest.json>] [--export <name>]

Builds an MCPB desktop bundle (a zip that Claude Desktop and other hosts install, and run with
their own node, offline): manifest.json (MCPB 0.3), the module's package under server/ (its
published files: package.json "files", or the folder holding the module; never TypeScript,
source maps or .env files) and its production dependencies under server/node_modules, copied
from where they are installed (links followed; devDependencies left out). Prints a size report.

The manifest comes from what the server declares now: the package's name (without its scope),
version, author (required), license, links and engines.node; the server's title and
description; its tools and prompts; a user_config setting per declared environment variable,
passed to the server in env. The host runs node with the package's own phantom-mcp binary:
"serve" on the module, as "phantom-mcp serve" does.

  --out <file>        where to write (default <name>-<version>.mcpb; manifest.json with --manifest-only)
  --icon <png>        the bundle's icon, a PNG (512x512 recommended)
  --manifest-only     write manifest.json only
  --check <file>      compare a committed manifest.json with what the code declares now: exit 1
                      with each difference, 0 when it is up to date (for CI); writes nothing
  --export <name>     take this named export of the module instead of looking for one
`,
  positionals: ['module'],
  flags: { out: 'value', icon: 'value', 'manifest-only': 'switch', check: 'value', export: 'value' },
  async run(args, io) {
    const check = valueFlag(args, 'check');
    const out = valueFlag(args, 'out');
    if (check !== undefined && (out !== undefined || args.flags['manifest-only'] === true)) throw new UsageError('--check writes nothing: it takes neither --out nor --manifest-only');
    try {
      const facts = await serverFacts(args.positionals.module, io.cwd, { exportName: valueFlag(args, 'export') });
      if (!facts.package) throw new BundleRefusal(`${facts.module} belongs to no package: a bundle needs its package.json (name, version, author, dependencies)`);
      const iconFlag = valueFlag(args, 'icon');
      const icon = iconFlag === undefined ? undefined : pngIcon(resolve(io.cwd, iconFlag));
      const layout = bundleLayout(facts, { icon: icon !== undefined });
      const manifest = mcpbManifest(facts, layout);
      if (facts.info.version !== manifest.version) io.err(`note: the server says version ${facts.info.version}; the bundle takes the package's, ${manifest.version}\n`);
      if (check !== undefined) return checked(resolve(io.cwd, check), manifest, io);
      if (args.flags['manifest-only'] === true) {
        const file = resolve(io.cwd, out ?? 'manifest.json');
        writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
        io.out(`wrote ${file}\n`);
        return EXIT.ok;
      }
      const files = bundleContents(facts, layout, manifest, icon);
      const archive = zipArchive(files.map((file) => ({ path: file.path, mode: file.mode, data: file.read() })));
      const file = resolve(io.cwd, out ?? `${manifest.name}-${manifest.version}.mcpb`);
      writeFileSync(file, archive);
      io.out(`wrote ${file}\n${sizeReport(files, archive.length)}\n`);
      return EXIT.ok;
    } catch (error) {
      if (!(error instanceof BundleRefusal)) throw error;
      io.err(`phantom-mcp bundle: ${error.message}\n`);
      return EXIT.failed;
    }
  },
};

/** Exit 0 when the committed manifest is what the code declares now, else 1 with each difference. */
function checked(file: string, manifest: McpbManifest, io: CliIo): number {
  let committed: unknown;
  try {
    committed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new BundleRefusal(`cannot read ${file} as JSON: ${(error as Error).message}`);
  }
  // Tools and prompts by name: one new tool is one line, not a shifted list.
  const differences = jsonDifferences(manifest, committed, { tools: 'name', prompts: 'name' }).map((difference) => describeDifference(difference, file));
  if (differences.length === 0) {
    io.out(`${file} is up to date\n`);
    return EXIT.ok;
  }
  io.err(`${file} differs from what the code declares now (${differences.length} ${differences.length === 1 ? 'difference' : 'differences'}):\n${differences.map((line) => `  ${line}\n`).join('')}Run phantom-mcp bundle with --manifest-only to rewrite it.\n`);
  return EXIT.failed;
}
