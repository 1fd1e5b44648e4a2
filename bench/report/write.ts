import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { throughputChart } from './chart';
import { markdownOf } from './markdown';
import type { BenchResults } from './results';

const BENCH = join(__dirname, '..', '..', '..', 'bench');
const README = join(BENCH, 'README.md');
const BEGIN = '<!-- results:begin (written by npm run bench) -->';
const END = '<!-- results:end -->';

/**
 * Writes `results/latest.{md,json,svg}` (`quick.*` for a quick run, which is a smoke test;
 * `partial.*` when only some suites ran) and, after a full run, quotes the tables in the README
 * between its two markers.
 */
export function writeResults(results: BenchResults): string[] {
  const dir = join(BENCH, 'results');
  mkdirSync(dir, { recursive: true });
  const stem = results.partial ? 'partial' : results.plan === 'full' ? 'latest' : 'quick';
  const markdown = markdownOf(results);
  const files = {
    [`${stem}.md`]: markdown,
    [`${stem}.json`]: `${JSON.stringify(results, null, 2)}\n`,
    [`${stem}.svg`]: throughputChart(results),
  };
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const written = Object.keys(files).map((name) => join('bench', 'results', name));
  if (stem === 'latest' && quoteInReadme(markdown)) written.push(join('bench', 'README.md'));
  return written;
}

function quoteInReadme(markdown: string): boolean {
  let readme: string;
  try {
    readme = readFileSync(README, 'utf8');
  } catch {
    return false;
  }
  const begin = readme.indexOf(BEGIN);
  const end = readme.indexOf(END);
  if (begin === -1 || end < begin) return false;
  // The README has its own title; its quote starts at the run's provenance line, headings one level down.
  const body = markdown.split('\n').slice(2).join('\n').replace(/^(#{2,}) /gm, '#$1 ').trim();
  writeFileSync(README, `${readme.slice(0, begin + BEGIN.length)}\n\n${body}\n\n${readme.slice(end)}`);
  return true;
}
