import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

/** The docs site's source folder (VitePress's `@`), from dist/spec/docs/. */
export const DOCS = resolve(__dirname, '../../../docs');

/** A `<<< @/file#region` line of a page: the page, the file it names, and the region. */
export interface SnippetInclude {
  readonly page: string;
  readonly file: string;
  readonly region?: string;
}

const INCLUDE = /^<<<\s+@\/(\S+?)(?:#([\w-]+))?(?:\{[^}]*\})?\s*$/gm;
const SKIPPED = new Set(['.vitepress', 'public', 'examples', 'node_modules']);

/** Every Markdown page of the site, relative to docs/. */
export function markdownPages(dir = DOCS): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return SKIPPED.has(name) ? [] : markdownPages(path);
    return name.endsWith('.md') ? [relative(DOCS, path)] : [];
  });
}

/** The snippet includes of a page. */
export function includesOf(page: string): SnippetInclude[] {
  const text = readFileSync(join(DOCS, page), 'utf8');
  return [...text.matchAll(INCLUDE)].map(([, file, region]) => ({ page, file, region }));
}

/**
 * Why an include would not show what it names, or undefined when it does: VitePress renders a
 * missing file as "File not found" and a missing region as the whole file, without failing.
 */
export function includeProblem({ file, region }: SnippetInclude): string | undefined {
  const path = join(DOCS, file);
  if (!path.startsWith(DOCS + '/') || !existsSync(path)) return `no file docs/${file}`;
  if (!file.startsWith('examples/') || !file.endsWith('.ts')) return `docs/${file} is not a compiled example (docs/examples/*.ts)`;
  if (region === undefined) return undefined;
  const text = readFileSync(path, 'utf8');
  const starts = text.split('\n').filter((line) => line.trim() === `// #region ${region}`).length;
  const ends = text.split('\n').filter((line) => line.trim() === `// #endregion ${region}`).length;
  return starts === 1 && ends === 1 ? undefined : `docs/${file} has ${starts} "// #region ${region}" and ${ends} "// #endregion ${region}" (one each expected)`;
}
