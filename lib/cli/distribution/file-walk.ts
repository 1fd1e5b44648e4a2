import { readdirSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** A regular file found under a folder. */
export interface FoundFile {
  /** Its path under the folder walked, with forward slashes. */
  readonly relative: string;
  readonly absolute: string;
  /** Its permission bits. */
  readonly mode: number;
  readonly size: number;
}

/**
 * Every regular file under `dir`, sorted by path, symbolic links followed (a bundle holds the
 * files they point at, never a link); a link back to a folder above it is not followed (a loop).
 * `skip(relative, isFolder)` leaves out a file, or a folder and all below it.
 */
export function walkFiles(dir: string, skip: (relative: string, isFolder: boolean) => boolean): FoundFile[] {
  const found: FoundFile[] = [];
  const visit = (absolute: string, relative: string, above: ReadonlySet<string>) => {
    const real = realpathSync(absolute);
    if (above.has(real)) return;
    const inside = new Set(above).add(real);
    for (const name of readdirSync(absolute).sort()) {
      const path = join(absolute, name);
      const below = relative === '' ? name : `${relative}/${name}`;
      const stats = statSync(path, { throwIfNoEntry: false });
      if (stats === undefined) continue; // a dangling link: nothing to bundle
      if (stats.isDirectory()) {
        if (!skip(below, true)) visit(path, below, inside);
      } else if (stats.isFile() && !skip(below, false)) {
        found.push({ relative: below, absolute: path, mode: stats.mode & 0o7777, size: stats.size });
      }
    }
  };
  visit(dir, '', new Set());
  return found;
}
