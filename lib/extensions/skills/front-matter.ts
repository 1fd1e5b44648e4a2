import { isDeepStrictEqual } from 'node:util';
import type * as Yaml from 'yaml';
import { lazyModule } from '../../core/lazy-module';
import type { JsonObject } from '../../core/wire.types';

/** The YAML parser, loaded when a skill is first read (a server without skills never loads it). */
const yaml = lazyModule(() => require('yaml') as typeof Yaml);

/** A `SKILL.md`'s front matter as JSON, or what is wrong with it. */
export type FrontMatterResult = { readonly frontmatter: JsonObject } | { readonly problem: string };

const DELIMITER = '---';

/** Anchors and aliases may expand a small file into a large value: bound how many a front matter may use. */
const MAX_ALIASES = 50;

/**
 * Reads the YAML front matter at the start of a `SKILL.md` (between a first line `---` and the
 * next line `---`) as a JSON object. A value JSON cannot carry as written (`.inf`, `.nan`) is a
 * problem, so the entry's `frontmatter` is always what a client parsing the file gets.
 */
export function parseFrontMatter(markdown: string): FrontMatterResult {
  const text = markdown.charCodeAt(0) === 0xfeff ? markdown.slice(1) : markdown;
  const lines = text.split('\n').map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
  if (lines[0] !== DELIMITER) return { problem: 'SKILL.md must begin with YAML front matter (a first line "---")' };
  const end = lines.findIndex((line, index) => index > 0 && line.replace(/[ \t]+$/, '') === DELIMITER);
  if (end < 0) return { problem: 'SKILL.md front matter has no closing "---" line' };
  let value: unknown;
  try {
    value = yaml().parse(lines.slice(1, end).join('\n'), { maxAliasCount: MAX_ALIASES });
  } catch (error) {
    return { problem: `SKILL.md front matter is not valid YAML: ${(error as Error).message.split('\n')[0]}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { problem: 'SKILL.md front matter must be a YAML mapping' };
  const json = JSON.parse(JSON.stringify(value)) as JsonObject;
  if (!isDeepStrictEqual(json, value)) return { problem: 'SKILL.md front matter holds values JSON cannot carry (such as .inf or .nan)' };
  return { frontmatter: json };
}

/** What the Agent Skills specification requires of a front matter besides the name: a description. */
export function frontMatterProblem(frontmatter: JsonObject): string | undefined {
  const { description } = frontmatter;
  if (typeof description !== 'string' || description.trim().length === 0) return 'SKILL.md front matter needs a non-empty "description"';
  return undefined;
}

/** A `SKILL.md` for generated content: `frontmatter` as YAML between `---` lines, then `body`. */
export function renderSkillMarkdown(frontmatter: JsonObject, body: string): string {
  return `${DELIMITER}\n${yaml().stringify(frontmatter)}${DELIMITER}\n\n${body}`;
}
