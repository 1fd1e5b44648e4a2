import { copyFileSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Template files whose names npm would not ship as they are, and the names they get in the project. */
const RENAMED: Readonly<Record<string, string>> = Object.freeze({ gitignore: '.gitignore', 'mocharc.json': '.mocharc.json' });

/** Files whose text names the project or the phantom-mcp version. */
const FILLED = new Set(['package.json', 'README.md', 'server.ts']);

/** What the template's placeholders become. */
export interface Filling {
  readonly name: string;
  /** The phantom-mcp dependency as package.json gives it: a range, or file:vendor/<tarball>. */
  readonly phantom: string;
}

/** Copies the template into `directory`, naming the project; the files written, relative to it. */
export function writeTemplate(template: string, directory: string, { name, phantom }: Filling): string[] {
  const written: string[] = [];
  const copy = (from: string, to: string, relative: string) => {
    mkdirSync(to, { recursive: true });
    for (const entry of readdirSync(from)) {
      const source = join(from, entry);
      const target = RENAMED[entry] ?? entry;
      if (statSync(source).isDirectory()) {
        copy(source, join(to, target), join(relative, target));
      } else if (FILLED.has(entry)) {
        writeFileSync(join(to, target), readFileSync(source, 'utf8').replaceAll('__PACKAGE_NAME__', name).replaceAll('__PHANTOM_VERSION__', phantom));
        written.push(join(relative, target));
      } else {
        copyFileSync(source, join(to, target));
        written.push(join(relative, target));
      }
    }
  };
  copy(template, directory, '');
  return written;
}

/**
 * Gives the project's package.json the `mcpName` the MCP registry verifies a server.json entry
 * against, next to the package's own name.
 */
export function claimMcpName(directory: string, mcpName: string): void {
  const file = join(directory, 'package.json');
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  const ordered: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(manifest)) {
    ordered[key] = value;
    if (key === 'name') ordered.mcpName = mcpName;
  }
  writeFileSync(file, `${JSON.stringify(ordered, null, 2)}\n`);
}
