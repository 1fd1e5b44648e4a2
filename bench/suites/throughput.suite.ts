import { HTTP_CONTENDERS, launch, type HttpContender, type HttpContenderId, type Running } from '../contenders';
import { CALLS } from '../harness/dialects';
import { everyEntrant, interleave } from '../harness/rounds';
import { firstLine } from '../report/format';
import type { Measured, RateFigures } from '../report/results';
import { loadEntrant, rateFigures, showRate } from './load-entrant';
import type { SuiteContext } from './suite-context';

/** `tools/call` of the echo tool: throughput and latency of every HTTP contender, side by side. */
export async function throughputSuite({ plan, progress, profiling }: SuiteContext): Promise<Partial<Record<HttpContenderId, Measured<RateFigures>>>> {
  const out: Partial<Record<HttpContenderId, Measured<RateFigures>>> = {};
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
  } finally {
    await Promise.all(running.map(([, r]) => r.server.stop()));
  }
  return out;
}
