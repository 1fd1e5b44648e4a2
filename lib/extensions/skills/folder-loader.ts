import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Dirent } from 'node:fs';
import { frontMatterProblem, parseFrontMatter } from './front-matter';
import { limitProblems } from './memory-skill';
import { mimeTypeFor, utf8Text } from './mime-types';
import type { CatalogSkill, SkillFile } from './skill-model';
import { skillNameProblem } from './skill-name';
import { digestOf, SkillTree } from './skill-tree';
import { SKILL_MD, type SkillUris } from './skill-uris';
import type { SkillLimits } from './skills-options';

/** What loading one skill directory gave: the skill, or its problems (each already labelled). */
export type FolderSkillResult =
  | { readonly skill: CatalogSkill }
  | { readonly name: string; readonly problems: readonly string[] };

/** Everything found in the skills folders: one result per skill directory, and problems of the folders themselves. */
export interface FolderScan {
  readonly results: readonly FolderSkillResult[];
  readonly folderProblems: readonly string[];
}

/** What the loader needs besides the folders. */
export interface FolderLoaderSettings {
  readonly uris: SkillUris;
  readonly limits: SkillLimits;
  readonly scopes: Readonly<Record<string, readonly string[]>>;
}

interface Walked {
  readonly files: { path: string; absolutePath: string; size: number }[];
  readonly emptyDirectories: string[];
  readonly problems: string[];
}

const isHidden = (name: string): boolean => name.startsWith('.');

/**
 * Reads every skill of the skills folders: each child directory of a folder (dot-directories
 * skipped, other entries ignored) is one skill, its name the directory's. Nothing is served from
 * what this finds until the whole scan is done, so a caller can swap catalogs all at once.
 */
export async function scanSkillFolders(folders: readonly string[], settings: FolderLoaderSettings): Promise<FolderScan> {
  const results: FolderSkillResult[] = [];
  const folderProblems: string[] = [];
  for (const folder of folders) {
    const absolute = resolve(folder);
    let entries: Dirent[];
    try {
      entries = await readdir(absolute, { withFileTypes: true });
    } catch (error) {
      folderProblems.push(`skills folder ${absolute}: cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
      continue;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (isHidden(entry.name)) continue;
      if (entry.isSymbolicLink()) {
        results.push({ name: entry.name, problems: [`skill "${entry.name}" (${join(absolute, entry.name)}): symlinks are refused`] });
      } else if (entry.isDirectory()) {
        results.push(await loadSkillDirectory(entry.name, join(absolute, entry.name), settings));
      }
    }
  }
  return { results, folderProblems };
}

async function loadSkillDirectory(name: string, root: string, settings: FolderLoaderSettings): Promise<FolderSkillResult> {
  const label = `skill "${name}" (${root})`;
  const fail = (problems: readonly string[]): FolderSkillResult => ({ name, problems: problems.map((problem) => `${label}: ${problem}`) });
  const nameProblem = skillNameProblem(name);
  const walked: Walked = { files: [], emptyDirectories: [], problems: [] };
  const canonicalRoot = await realpath(root);
  await walk(canonicalRoot, '', walked, settings.limits.maxFiles);
  const problems = [...(nameProblem === undefined ? [] : [`${nameProblem} (the directory's name is the skill's)`]), ...walked.problems];
  const total = walked.files.reduce((sum, file) => sum + file.size, 0);
  problems.push(...limitProblems(walked.files.length, total, settings.limits));
  const skillMd = walked.files.find((file) => file.path === SKILL_MD);
  if (skillMd === undefined && !walked.problems.some((problem) => problem.startsWith(`${SKILL_MD}:`))) problems.push(`it has no ${SKILL_MD} file at its root`);
  if (problems.length > 0 || skillMd === undefined) return fail(problems);

  const files = new Map<string, SkillFile>();
  let frontmatter: Record<string, unknown> | undefined;
  for (const file of walked.files) {
    const bytes = await readFile(file.absolutePath);
    if (bytes.byteLength !== file.size) return fail([`${file.path}: changed while the skill was being loaded`]);
    files.set(file.path, { path: file.path, size: file.size, digest: digestOf(bytes), mimeType: mimeTypeFor(file.path, bytes), source: { absolutePath: file.absolutePath } });
    if (file.path !== SKILL_MD) continue;
    const text = utf8Text(bytes);
    if (text === undefined) return fail([`${SKILL_MD} is not UTF-8 text`]);
    const parsed = parseFrontMatter(text);
    if ('problem' in parsed) return fail([parsed.problem]);
    frontmatter = parsed.frontmatter;
  }
  const front = frontmatter!;
  const frontProblems: string[] = [];
  if (front.name !== name) frontProblems.push(`its front matter's name (${JSON.stringify(front.name)}) must equal its directory's name`);
  const described = frontMatterProblem(front);
  if (described !== undefined) frontProblems.push(described);
  if (frontProblems.length > 0) return fail(frontProblems);

  const sorted = [...files.values()].sort((a, b) => (a.path < b.path ? -1 : 1));
  return {
    skill: {
      name,
      uri: settings.uris.skillMd(name),
      frontmatter: front,
      scopes: [...(settings.scopes[name] ?? [])],
      origin: 'folder',
      content: {
        kind: 'static',
        root: canonicalRoot,
        files,
        tree: new SkillTree(files.keys(), walked.emptyDirectories),
        fingerprint: JSON.stringify([front, sorted.map((file) => [file.path, file.digest])]),
      },
    },
  };
}

/**
 * Lists the files under `directory` (relative paths from the skill's root), skipping dot-files
 * and refusing symlinks and special files. Stops listing once more than `maxFiles` files are
 * found: the limit is then broken, and a huge tree is not walked to the end to say so.
 */
async function walk(directory: string, relative: string, walked: Walked, maxFiles: number): Promise<void> {
  const entries = await readdir(directory, { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  let children = 0;
  for (const entry of entries) {
    if (walked.files.length > maxFiles) return;
    if (isHidden(entry.name)) continue;
    const path = relative === '' ? entry.name : `${relative}/${entry.name}`;
    const absolutePath = join(directory, entry.name);
    children += 1;
    if (entry.isSymbolicLink()) walked.problems.push(`${path}: symlinks are refused`);
    else if (entry.isDirectory()) await walk(absolutePath, path, walked, maxFiles);
    else if (entry.isFile()) walked.files.push({ path, absolutePath, size: (await stat(absolutePath)).size });
    else walked.problems.push(`${path}: special files (sockets, devices, FIFOs) are refused`);
    if (entry.name.includes('\\') && !walked.problems.some((problem) => problem.startsWith(`${path}:`))) walked.problems.push(`${path}: a name with "\\" cannot be served`);
  }
  if (children === 0 && relative !== '') walked.emptyDirectories.push(relative);
}
