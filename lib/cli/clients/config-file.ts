import { randomBytes } from 'node:crypto';
import { chmodSync, constants, copyFileSync, existsSync, lstatSync, mkdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { CommandError } from '../command';

/** A configuration file as read: its text, or `undefined` when it does not exist yet. */
export function readConfig(file: string): string | undefined {
  return said(file, () => {
    const stats = statSync(file, { throwIfNoEntry: false });
    if (stats === undefined) return undefined;
    if (!stats.isFile()) throw new CommandError(`${file} is not a file`);
    return readFileSync(file, 'utf8');
  });
}

/** What writing a configuration file did. */
export interface Written {
  /** The file written (a symbolic link's target: the link stays). */
  readonly file: string;
  /** Whether there was no file before. */
  readonly created: boolean;
  /** The copy of the file as it was, byte for byte, when there was one. */
  readonly backup?: string;
}

/**
 * Writes a configuration file safely: first a copy of the old one, byte for byte, to `<file>.bak`
 * (or, when that exists, `<file>.<time>.bak`: an older backup is never overwritten); then the new
 * text to a temporary file beside it, with the old file's permissions (`~/.claude.json` is
 * private), renamed over it, so a reader sees the old file or the new one, never half of one. A
 * symbolic link (a dotfiles manager's) is followed: its target is written and the link kept.
 * Missing folders are made.
 */
export function writeConfig(file: string, text: string, now: Date): Written {
  return said(file, () => written(file, text, now));
}

function written(file: string, text: string, now: Date): Written {
  const exists = existsSync(file);
  const target = exists && lstatSync(file).isSymbolicLink() ? realpathSync(file) : file;
  mkdirSync(dirname(target), { recursive: true });
  const backup = exists ? backUp(file, now) : undefined;
  const mode = exists ? statSync(target).mode & 0o7777 : undefined;
  const temporary = `${target}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    writeFileSync(temporary, text, { flag: 'wx', ...(mode === undefined ? {} : { mode }) });
    // The umask narrowed the mode given above: set it exactly.
    if (mode !== undefined) chmodSync(temporary, mode);
    renameSync(temporary, target);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
  return { file: target, created: !exists, ...(backup ? { backup } : {}) };
}

/** Copies the file to the first free backup name; COPYFILE_EXCL never replaces one. */
function backUp(file: string, now: Date): string {
  const stamp = now.toISOString().replace(/:/g, '-');
  const names = [`${file}.bak`, `${file}.${stamp}.bak`, ...Array.from({ length: 98 }, (_, at) => `${file}.${stamp}-${at + 2}.bak`)];
  for (const name of names) {
    try {
      copyFileSync(file, name, constants.COPYFILE_EXCL);
      return name;
    } catch (error) {
      if ((error as { code?: string }).code !== 'EEXIST') throw error;
    }
  }
  throw new CommandError(`${file}: every backup name for ${stamp} is taken; remove some of its .bak files`);
}

/** A system error (no permission, a folder where a file should be ...) as a one-line refusal naming the file. */
function said<T>(file: string, work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof CommandError || typeof (error as { code?: unknown }).code !== 'string') throw error;
    throw new CommandError(`cannot use ${file}: ${(error as Error).message}`, { cause: error });
  }
}
