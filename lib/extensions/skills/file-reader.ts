import { constants } from 'node:fs';
import { open, realpath } from 'node:fs/promises';
import { sep } from 'node:path';
import type { SkillFile } from './skill-model';
import { digestOf } from './skill-tree';

/** A file of a folder skill no longer holds what its entry publishes: it changed on disk since the catalog was loaded. */
export class StaleSkillFileError extends Error {
  override readonly name = 'StaleSkillFileError';
  constructor(readonly path: string, reason: string) {
    super(`The skill file ${path} ${reason} since the skills were loaded; call reload() to publish it`);
  }
}

/**
 * The bytes of a skill file, exactly those its entry describes. A file on disk is opened without
 * following a symlink, must still resolve inside the skill's root and be a regular file of the
 * published size, and its bytes must hash to the published digest: a file changed (or swapped
 * for a link) after loading is refused rather than served against a stale digest.
 */
export async function readSkillFile(file: SkillFile, root: string | undefined): Promise<Uint8Array> {
  if ('bytes' in file.source) return file.source.bytes;
  const { absolutePath } = file.source;
  let resolved: string;
  try {
    resolved = await realpath(absolutePath);
  } catch {
    throw new StaleSkillFileError(absolutePath, 'was removed');
  }
  if (root !== undefined && !resolved.startsWith(root + sep)) throw new StaleSkillFileError(absolutePath, 'now resolves outside its skill');
  const handle = await open(absolutePath, constants.O_RDONLY | constants.O_NOFOLLOW).catch(() => {
    throw new StaleSkillFileError(absolutePath, 'cannot be opened as a regular file');
  });
  try {
    const stats = await handle.stat();
    if (!stats.isFile() || stats.size !== file.size) throw new StaleSkillFileError(absolutePath, 'changed size');
    const bytes = new Uint8Array(file.size);
    let offset = 0;
    while (offset < file.size) {
      const { bytesRead } = await handle.read(bytes, offset, file.size - offset, offset);
      if (bytesRead === 0) break;
      offset += bytesRead;
    }
    if (offset !== file.size || digestOf(bytes) !== file.digest) throw new StaleSkillFileError(absolutePath, 'changed content');
    return bytes;
  } finally {
    await handle.close();
  }
}
