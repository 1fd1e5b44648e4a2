import { createHash } from 'node:crypto';

/** A direct child of a skill directory: a file or a subdirectory, by its path relative to the skill's root. */
export interface TreeChild {
  readonly path: string;
  readonly directory: boolean;
}

function parentOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

/**
 * The directories of one skill and their direct children, built once from its file paths (and
 * any empty directories), each directory's children sorted by path.
 */
export class SkillTree {
  private readonly children = new Map<string, TreeChild[]>([['', []]]);

  constructor(filePaths: Iterable<string>, emptyDirectories: Iterable<string> = []) {
    for (const path of filePaths) this.add(path, false);
    for (const path of emptyDirectories) this.add(path, true);
    for (const list of this.children.values()) list.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  /** The direct children of the directory at `path` (`''` for the root), or `undefined` when it is no directory. */
  list(path: string): readonly TreeChild[] | undefined {
    return this.children.get(path);
  }

  private add(path: string, directory: boolean): void {
    if (this.children.has(path)) return;
    if (directory) this.children.set(path, []);
    const parent = parentOf(path);
    if (!this.children.has(parent)) this.add(parent, true);
    this.children.get(parent)!.push({ path, directory });
  }
}

/** `sha256:` and the 64 lowercase hex digits of the SHA-256 of `bytes`. */
export function digestOf(bytes: Uint8Array): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}
