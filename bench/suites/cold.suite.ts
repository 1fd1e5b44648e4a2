import { HTTP_CONTENDERS, launch, type HttpContender, type HttpContenderId } from '../contenders';
import { CALLS } from '../harness/dialects';
import { drive } from '../harness/load';
import { cpuMicros } from '../harness/process-cpu';
import { everyEntrant, interleave, type Entrant } from '../harness/rounds';
import type { ServerProcess } from '../harness/server-process';
import { median } from '../harness/stats';
import { firstLine, micros } from '../report/format';
import type { BenchResults, ByContender, ColdFigures, ColdSample } from '../report/results';
import type { SuiteContext } from './suite-context';

/**
 * A fresh process's first calls, as a serverless or scale-to-zero deployment pays them: each
 * round starts every HTTP contender (no bearer token) anew, reads its CPU time once it says it is
 * ready, opens what its dialect needs (a session), then sends the echo call `firstCalls` times on
 * one connection, one call at a time, as a single client does, reading the CPU time after each
 * checkpoint. Each figure is the CPU spent from ready to the checkpoint over the calls made,
 * the session's opening and the one probe call included (every contender pays them alike).
 */
export async function coldSuite({ plan, progress, profiling }: SuiteContext): Promise<ColdResults> {
  const { rounds, checkpoints } = plan.cold;
  const contenders = HTTP_CONTENDERS.filter((c) => !c.bearer);
  const unavailable = new Map<HttpContenderId, string>();
  const entrant = (contender: HttpContender): Entrant<ColdSample | undefined> => ({
    label: contender.label,
    run: async () => {
      if (unavailable.has(contender.id)) return undefined;
      let ready: number | undefined;
      const started = await launch(contender, { tools: 1, templates: 0 }, [CALLS.echo], profiling, (server: ServerProcess) => void (ready = cpuMicros(server.pid)));
      if ('unavailable' in started) {
        unavailable.set(contender.id, started.unavailable);
        progress.line(`cold: ${contender.label} is unavailable: ${firstLine(started.unavailable)}`);
        return undefined;
      }
      try {
        const prepared = started.prepared.get(CALLS.echo)!;
        const perCall: number[] = [];
        let made = 0;
        let failed = 0;
        for (const checkpoint of checkpoints) {
          const sample = await drive(prepared, { connections: 1, amount: checkpoint - made });
          made = checkpoint;
          failed += sample.failed;
          const now = cpuMicros(started.server.pid);
          if (now === undefined || ready === undefined) return undefined;
          perCall.push((now - ready) / checkpoint);
        }
        return { startupCpuMs: ready === undefined ? Number.NaN : ready / 1000, perCallUs: perCall, failed };
      } finally {
        await started.server.stop();
      }
    },
  });
  const show = (sample: ColdSample | undefined) => (sample ? sample.perCallUs.map((us, i) => `${checkpoints[i]}: ${micros(us)}`).join(', ') : 'unavailable');
  const samples = await interleave(`cold (${checkpoints.join(', ')} calls)`, contenders.map(entrant), { rounds, warmup: false }, progress, everyEntrant(show));
  const figures: ByContender<ColdFigures> = {};
  contenders.forEach((contender, i) => {
    const measured = samples[i].filter((s): s is ColdSample => s !== undefined);
    const why = unavailable.get(contender.id);
    if (measured.length === 0) {
      figures[contender.id] = { unavailable: why ?? 'no CPU time (no /proc)' };
      return;
    }
    figures[contender.id] = {
      startupCpuMs: median(measured.map((s) => s.startupCpuMs)),
      perCallUs: checkpoints.map((_, k) => median(measured.map((s) => s.perCallUs[k]))),
      failed: measured.reduce((sum, s) => sum + s.failed, 0),
      rounds: measured,
    };
  });
  return { checkpoints, byContender: figures };
}

type ColdResults = NonNullable<BenchResults['cold']>;
