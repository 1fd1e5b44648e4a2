import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

interface ProfileNode {
  readonly id: number;
  readonly children?: readonly number[];
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number; readonly columnNumber: number };
  readonly hitCount?: number;
}

interface Profile {
  readonly nodes: readonly ProfileNode[];
  readonly startTime: number;
  readonly endTime: number;
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/**
 * The functions that spent the most self time in V8 CPU profiles (`--cpu-prof`), by function and
 * by file, with `file:line` as in the built JavaScript (dist/lib for the framework). Shares are of
 * the busy time: a contender's process idles while the others are measured, and `(idle)` is left out.
 *
 * @example
 * npm run bench -- --only throughput --profile phantom-session
 * node dist/bench/profile-top.js /tmp/phantom-bench-profiles/phantom-session-1-tools-0-templates/*.cpuprofile --top 25
 */
function main(argv: readonly string[]): void {
  const topAt = argv.indexOf('--top');
  const top = topAt === -1 ? 30 : Number(argv[topAt + 1]);
  const files = argv.filter((arg, i) => arg.endsWith('.cpuprofile') && argv[i - 1] !== '--top');
  if (files.length === 0) throw new Error('usage: node dist/bench/profile-top.js FILE.cpuprofile... [--top N]');
  const byFunction = new Map<string, number>();
  const byFile = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let total = 0;
  for (const file of files) {
    const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
    const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
    const parents = new Map<number, number>();
    for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
    // Self time: each sample's delta belongs to the node on top of the stack at that sample.
    profile.samples.forEach((id, i) => {
      const node = nodes.get(id)!;
      const micros = profile.timeDeltas[i] ?? 0;
      const { functionName, url, lineNumber } = node.callFrame;
      if (functionName === '(idle)') return;
      total += micros;
      const where = url ? `${shorten(url)}:${lineNumber + 1}` : '';
      add(byFunction, `${functionName || '(anonymous)'} ${where}`.trim(), micros);
      add(byFile, url ? shorten(url) : `(${functionName || 'native'})`, micros);
      // Inclusive time of the framework's own functions: each one on the sample's stack, once.
      const onStack = new Set<string>();
      for (let at: number | undefined = id; at !== undefined; at = parents.get(at)) {
        const frame = nodes.get(at)!.callFrame;
        if (frame.url.includes('/dist/lib/')) onStack.add(`${frame.functionName || '(anonymous)'} ${shorten(frame.url)}:${frame.lineNumber + 1}`);
      }
      for (const key of onStack) add(inclusive, key, micros);
    });
  }
  const show = (title: string, table: Map<string, number>) => {
    process.stdout.write(`\n${title}\n`);
    for (const [key, micros] of [...table].sort((a, b) => b[1] - a[1]).slice(0, top)) {
      process.stdout.write(`${((100 * micros) / total).toFixed(1).padStart(5)}%  ${(micros / 1000).toFixed(0).padStart(6)} ms  ${key}\n`);
    }
  };
  process.stdout.write(`${files.length} profile(s), ${(total / 1e6).toFixed(1)} s busy`);
  show('Self time by function', byFunction);
  show('Self time by file', byFile);
  show('Inclusive time of framework functions (dist/lib), callees included', inclusive);
}

function add(table: Map<string, number>, key: string, micros: number): void {
  table.set(key, (table.get(key) ?? 0) + micros);
}

function shorten(url: string): string {
  const path = url.startsWith('file://') ? fileURLToPath(url) : url;
  return path.startsWith('/') ? relative(process.cwd(), path) : path;
}

// Piped into `head`, the output may be cut short: that is not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
});
main(process.argv.slice(2));
