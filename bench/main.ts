import { parseArgs } from 'node:util';
import { Progress } from './harness/progress';
import { FULL, QUICK } from './plan';
import { machine } from './report/machine';
import type { BenchResults, Target } from './report/results';
import { targetsOf } from './report/targets';
import { writeResults } from './report/write';
import { clusterSuite } from './suites/cluster.suite';
import { coldSuite } from './suites/cold.suite';
import { memorySuite } from './suites/memory.suite';
import { scaleSuite } from './suites/scale.suite';
import { startupSuite } from './suites/startup.suite';
import { stdioSuite } from './suites/stdio.suite';
import type { SuiteContext } from './suites/suite-context';
import { throughputSuite } from './suites/throughput.suite';

const USAGE = `npm run bench [-- options]

  --quick                 every suite once and briefly (under two minutes): a smoke test
  --only a,b              run only these suites: ${['throughput', 'scale', 'memory', 'startup', 'cold', 'stdio', 'cluster'].join(', ')}
  --profile id,id         write V8 CPU profiles of these contenders' processes, e.g.
                          phantom-session,phantom-stateless,phantom-stdio,sdk-stateful,
                          or a cluster setup (its nodes): two-nodes-redis
  --profile-dir DIR       where the profiles go (default /tmp/phantom-bench-profiles)
`;

/** The suites in the order they run; each fills its part of the results. */
const SUITES: readonly { readonly name: string; run(ctx: SuiteContext, results: BenchResults): Promise<void> }[] = [
  {
    name: 'throughput',
    run: async (ctx, r) => {
      const { figures, tokenCost } = await throughputSuite(ctx);
      r.throughput = figures;
      r.tokenCost = tokenCost;
    },
  },
  { name: 'scale', run: async (ctx, r) => void (r.scale = await scaleSuite(ctx)) },
  { name: 'memory', run: async (ctx, r) => void (r.memory = await memorySuite(ctx)) },
  { name: 'startup', run: async (ctx, r) => void (r.startup = await startupSuite(ctx)) },
  { name: 'cold', run: async (ctx, r) => void (r.cold = await coldSuite(ctx)) },
  { name: 'stdio', run: async (ctx, r) => void (r.stdio = await stdioSuite(ctx)) },
  { name: 'cluster', run: async (ctx, r) => void (r.cluster = await clusterSuite(ctx)) },
];

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      'quick': { type: 'boolean', default: false },
      'only': { type: 'string' },
      'profile': { type: 'string' },
      'profile-dir': { type: 'string', default: '/tmp/phantom-bench-profiles' },
      'help': { type: 'boolean', default: false },
    },
  });
  if (values.help) return void process.stdout.write(USAGE);
  const only = values.only?.split(',').map((s) => s.trim());
  const unknown = only?.filter((name) => !SUITES.some((s) => s.name === name)) ?? [];
  if (unknown.length > 0) throw new Error(`unknown suite: ${unknown.join(', ')}\n\n${USAGE}`);

  const plan = values.quick ? QUICK : FULL;
  const progress = new Progress();
  const ctx: SuiteContext = {
    plan,
    progress,
    profiling: { ids: new Set(values.profile?.split(',').map((s) => s.trim()) ?? []), dir: values['profile-dir']! },
  };
  const started = Date.now();
  const results: BenchResults = {
    plan: plan.name,
    partial: only !== undefined,
    date: new Date().toISOString(),
    machine: machine(),
    elapsedSeconds: 0,
    connections: plan.connections,
  };
  const suites = SUITES.filter((s) => !only || only.includes(s.name));
  progress.line(`phantom-mcp bench, ${plan.name} plan: ${suites.map((s) => s.name).join(', ')}`);
  for (const suite of suites) await suite.run(ctx, results);
  results.targets = targetsOf(results);
  results.elapsedSeconds = (Date.now() - started) / 1000;

  const written = writeResults(results);
  progress.line(`targets:\n${results.targets.map(describe).join('\n')}`);
  progress.line(`wrote ${written.join(', ')}`);
  if (ctx.profiling.ids.size > 0) progress.line(`CPU profiles in ${ctx.profiling.dir}`);
}

function describe(target: Target): string {
  const unit = target.unit ? ` ${target.unit}` : '×';
  const ratio = target.ratio === null ? '–' : `${target.ratio}${unit}`;
  return `  ${target.holds ? 'holds  ' : 'MISSES '} ${target.name}: ${ratio} (goal ${target.goal}${target.unit ? unit : ''}; ${target.detail})`;
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  process.exit(1);
});
