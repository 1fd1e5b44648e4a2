import { copyFileSync, existsSync, mkdirSync, mkdtempSync, realpathSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { REPOSITORY, runIn } from '../../support/packed-package';

/**
 * The repository's files as a fresh clone of the working tree would have them (what git tracks
 * and is still there, plus new files it does not ignore: no dist/), in a temporary folder;
 * node_modules links to this repository's, as after `npm install` in the clone.
 */
export async function workingCopy(): Promise<string> {
  const listed = await runIn(REPOSITORY, 'git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z']);
  if (listed.code !== 0) throw new Error(`git ls-files: ${listed.stderr}`);
  const clone = join(mkdtempSync(join(tmpdir(), 'phantom-clone-')), 'phantom-mcp');
  for (const file of listed.stdout.split('\0').filter((path) => path !== '' && path !== 'node_modules' && existsSync(join(REPOSITORY, path)))) {
    mkdirSync(join(clone, dirname(file)), { recursive: true });
    copyFileSync(join(REPOSITORY, file), join(clone, file));
  }
  symlinkSync(realpathSync(join(REPOSITORY, 'node_modules')), join(clone, 'node_modules'), 'dir');
  return clone;
}
