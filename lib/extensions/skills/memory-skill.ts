import type { JsonObject } from '../../core/wire.types';
import { mimeTypeFor } from './mime-types';
import type { SkillFile, SkillFiles } from './skill-model';
import type { SkillLimits } from './skills-options';
import { digestOf, SkillTree } from './skill-tree';
import { relativePathProblem, SKILL_MD } from './skill-uris';
import { renderSkillMarkdown } from './front-matter';

const ENCODER = new TextEncoder();

/** Files held in memory, or the problems that keep them from being served. */
export type MemoryFilesResult = { readonly files: SkillFiles } | { readonly problems: readonly string[] };

/**
 * The files of a skill given as content (an added skill's, or what a `@Skill` method produced):
 * `SKILL.md` written from `frontmatter` and `body`, and `files` by relative path, each checked
 * (relative, no `..`, no dot-files) and the whole within `limits`.
 */
export function memoryFiles(
  frontmatter: JsonObject,
  body: string,
  files: Readonly<Record<string, string | Uint8Array>>,
  limits: SkillLimits,
): MemoryFilesResult {
  const problems: string[] = [];
  const all = new Map<string, SkillFile>();
  const put = (path: string, content: string | Uint8Array): void => {
    const bytes = typeof content === 'string' ? ENCODER.encode(content) : content;
    all.set(path, { path, size: bytes.byteLength, digest: digestOf(bytes), mimeType: mimeTypeFor(path, bytes), source: { bytes } });
  };
  put(SKILL_MD, renderSkillMarkdown(frontmatter, body));
  for (const [path, content] of Object.entries(files)) {
    const problem = relativePathProblem(path);
    if (problem !== undefined) problems.push(problem);
    else if (typeof content !== 'string' && !(content instanceof Uint8Array)) problems.push(`"${path}": content must be a string or a Uint8Array`);
    else put(path, content);
  }
  problems.push(...limitProblems(all.size, [...all.values()].reduce((sum, file) => sum + file.size, 0), limits));
  if (problems.length > 0) return { problems };
  return { files: { files: all, tree: new SkillTree(all.keys()) } };
}

/** What a skill of `count` files holding `bytes` bytes breaks of `limits`. */
export function limitProblems(count: number, bytes: number, limits: SkillLimits): string[] {
  const problems: string[] = [];
  if (count > limits.maxFiles) problems.push(`it has more than ${limits.maxFiles} files (maxFilesPerSkill)`);
  if (bytes > limits.maxBytes) problems.push(`its files hold more than ${limits.maxBytes} bytes (maxSkillBytes)`);
  return problems;
}
