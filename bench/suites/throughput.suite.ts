import { availableParallelism } from 'node:os';
import { affinityOf, pin } from '../harness/affinity';
import { HTTP_CONTENDERS, launch, launchTokenPair, type HttpContender, type HttpContenderId, type Running } from '../contenders';
import { CALLS } from '../harness/dialects';
import { everyEntrant, interleave } from '../harness/rounds';
import { firstLine } from '../report/format';
import type { Measured, RateFigures, TokenCost } from '../report/results';
import { loadEntrant, rateFigures, showRate } from './load-entrant';
import type { SuiteContext } from './suite-context';
import { tokenCost } from './token-cost';

/** Where taskset exists, the token's cost is measured with the generator on one core and the server on the other. */
const GENERATOR_CPU = '0';
const SERVER_CPU = '1';

/**
 * `tools/call` of the echo tool: throughput and latency of every HTTP contender, side by side,
 * then the bearer token's cost (`token-cost.ts`). The rounds pin nothing: with the generator on a core
 * of its own, bare node:http's p99 halves and the p99 ratios of issue 5 no longer compare with
 * the runs before (issue 14 decides how the bench shares the cores).
 */
export async function throughputSuite({ plan, progress, profiling }: SuiteContext): Promise<ThroughputResults> {
  const out: Partial<Record<HttpContenderId, Measured<RateFigures>>> = {};
  const costs: Partial<Record<HttpContenderId, TokenCost>> = {};
  const running: [HttpContender, Running][] = [];
  try {
    for (const contender of HTTP_CONTENDERS) {
      progress.status(`throughput: starting ${contender.label}…`);
      const started = await launch(contender, { tools: 1, templates: 0 }, [CALLS.echo], profiling);
      if ('unavailable' in started) {
        out[contender.id] = started;
        progress.line(`throughput: ${contender.label} is unavailable: ${firstLine(started.unavailable)}`);
      } else {
        running.push([contender, started]);
      }
    }
    const entrants = running.map(([contender, r]) => loadEntrant(contender.label, r, CALLS.echo, plan.throughput, plan.connections));
    const samples = await interleave('throughput', entrants, { rounds: plan.throughput.rounds, warmup: true }, progress, everyEntrant(showRate));
    running.forEach(([contender], i) => (out[contender.id] = rateFigures(samples[i])));
    const { tokenSlices: slices, tokenSliceSeconds: sliceSeconds } = plan.throughput;
    for (const contender of HTTP_CONTENDERS.filter((c) => c.bearer)) {
      progress.status(`throughput: the token's cost, ${contender.label}, ${slices} slices of each…`);
      const pair = await launchTokenPair(contender, { tools: 1, templates: 0 }, CALLS.echo);
      if ('unavailable' in pair) {
        progress.line(`throughput: the token's cost, ${contender.label}, is unavailable: ${firstLine(pair.unavailable)}`);
        continue;
      }
      // The token's cost is CPU per call: measured with the server on a core of its own, away from
      // the generator, whose larger requests (the token is ~600 bytes of header) would otherwise
      // pollute the server's caches on the token's side only (0.80x unpinned, 0.97x pinned, same run).
      const own = affinityOf(process.pid);
      const pinned = own !== undefined && availableParallelism() >= 2 && pin(process.pid, GENERATOR_CPU) && pin(pair.plain.server.pid, SERVER_CPU);
      try {
        const cost = await tokenCost(pair.plain, pair.authed, CALLS.echo, { slices, sliceSeconds }, plan.connections);
        if (!cost) continue;
        costs[contender.bearer!.against] = { ...cost, pinned };
        progress.line(`throughput: ${contender.label}: ${Math.round(cost.withUs)} us of server CPU per call vs ${Math.round(cost.withoutUs)} us without, one process, ${slices} alternating slices of each`);
      } finally {
        if (own !== undefined) pin(process.pid, own);
        await pair.plain.server.stop();
      }
    }
  } finally {
    await Promise.all(running.map(([, r]) => r.server.stop()));
  }
  return { figures: out, tokenCost: costs };
}

export interface ThroughputResults {
  readonly figures: Partial<Record<HttpContenderId, Measured<RateFigures>>>;
  readonly tokenCost: Partial<Record<HttpContenderId, TokenCost>>;
}
