import type { Running } from '../contenders';
import type { Call } from '../harness/dialects';
import { drive, type LoadSample } from '../harness/load';
import type { Entrant } from '../harness/rounds';
import { median } from '../harness/stats';
import type { Timed } from '../plan';
import { millis, rate } from '../report/format';
import type { RateFigures } from '../report/results';

/**
 * One contender driven with one call for a round, then left to finish what it still holds, so
 * that its backlog does not run on the next contender's time.
 */
export function loadEntrant(label: string, running: Running, call: Call, timed: Timed, connections: number): Entrant<LoadSample> {
  const prepared = running.prepared.get(call)!;
  return {
    label,
    run: async ({ warm, onTick }) => {
      const sample = await drive(prepared, { connections, seconds: warm ? timed.warmupSeconds : timed.seconds, onTick });
      await running.server.drain();
      return sample;
    },
  };
}

export function rateFigures(rounds: readonly LoadSample[]): RateFigures {
  return {
    rps: median(rounds.map((s) => s.rps)),
    p50: median(rounds.map((s) => s.p50)),
    p99: median(rounds.map((s) => s.p99)),
    failed: rounds.reduce((sum, s) => sum + s.failed, 0),
    rounds,
  };
}

export function showRate(sample: LoadSample): string {
  return `${rate(sample.rps)}/s p99 ${millis(sample.p99)}${sample.failed ? ` (${sample.failed} failed)` : ''}`;
}
