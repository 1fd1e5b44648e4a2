import type { Running } from '../contenders';
import type { Call } from '../harness/dialects';
import { drive, type LoadSample } from '../harness/load';
import { cpuMicros } from '../harness/process-cpu';
import type { Entrant } from '../harness/rounds';
import { median } from '../harness/stats';
import type { Timed } from '../plan';
import { millis, rate } from '../report/format';
import type { RateFigures } from '../report/results';

/**
 * Between two runs a contender only drains (finishes the requests it still holds, so that none of
 * them runs on the next contender's time); it is not made to collect its garbage: a forced
 * collection shrinks the heap, and the next run's calls cost more CPU until it has grown again
 * (measured here: 120-140 us a call against 43 us for runs of 4,000 calls, 10-20% for 3 s runs).
 * The garbage a run leaves is collected on that contender's own time, in its next run.
 */
async function between(running: Running): Promise<void> {
  await running.server.drain();
}

/**
 * How a recorded round begins when the entrants are interleaved. An entrant left idle for a
 * minute while the others ran costs more per call in its next second (its heap shrunk by V8's
 * memory reducer, its caches and branch history another process's): the rounds of the run of 2026-12-02 12:08 cost
 * 42 / 51 / 374 µs a call (bare, phantom, the SDK) against 27 / 40 / 223 in the warm-up windows just
 * before. So each recorded round is preceded by `seconds` of the same calls, unrecorded, and then
 * waits (at most 2 s) until the other servers (`others`) have stopped using the CPU, so that the
 * collections an idle process runs late do not fall inside another entrant's round.
 */
export interface Rewarm {
  readonly seconds: number;
  readonly others: () => readonly number[];
}

/** One contender driven with one call for a round, then drained. */
export function loadEntrant(label: string, running: Running, call: Call, timed: Timed, connections: number, rewarm?: Rewarm): Entrant<LoadSample> {
  const prepared = running.prepared.get(call)!;
  return {
    label,
    run: async ({ warm, onTick }) => {
      if (!warm && rewarm) {
        await drive(prepared, { connections, seconds: rewarm.seconds, onTick: () => undefined });
        await between(running);
        await quiet(rewarm.others().filter((pid) => pid !== running.server.pid));
      }
      const before = cpuMicros(running.server.pid);
      const sample = await drive(prepared, { connections, seconds: warm ? timed.warmupSeconds : timed.seconds, onTick });
      const after = cpuMicros(running.server.pid);
      await between(running);
      return withCpu(sample, before, after);
    },
  };
}

/**
 * One contender driven with a number of requests sized to take about `timed.seconds`, waiting for
 * every answer: for contenders whose answers take hundreds of milliseconds, a cut-off run would
 * end before the first answers of a full queue came back, and leave seconds of work behind. The
 * warm-up ramps up (one request per connection, then four times more each time) until it has
 * run `timed.warmupSeconds`, which also gives the first estimate of the rate.
 */
export function sizedEntrant(label: string, running: Running, call: Call, timed: Timed, connections: number): Entrant<LoadSample> {
  const prepared = running.prepared.get(call)!;
  let rate = 0;
  const run = async (amount: number, onTick: (second: number) => void) => {
    const before = cpuMicros(running.server.pid);
    const driven = await drive(prepared, { connections, amount, onTick });
    const sample = withCpu(driven, before, cpuMicros(running.server.pid));
    await between(running);
    if (sample.rps > 0) rate = sample.rps;
    return sample;
  };
  return {
    label,
    run: async ({ warm, onTick }) => {
      if (!warm) return run(Math.max(connections, Math.round((rate * timed.seconds) / connections) * connections), onTick);
      const started = Date.now();
      let sample = await run(connections, onTick);
      for (let amount = connections * 4; Date.now() - started < timed.warmupSeconds * 1000; amount *= 4) {
        const left = timed.warmupSeconds - (Date.now() - started) / 1000;
        sample = await run(Math.max(connections, Math.min(amount, Math.round(rate * left))), onTick);
      }
      return sample;
    },
  };
}

/** Waits until the processes `pids` together used at most one clock tick of CPU over 200 ms, or 2 s have passed. */
async function quiet(pids: readonly number[]): Promise<void> {
  const total = () => pids.reduce((sum, pid) => sum + (cpuMicros(pid) ?? 0), 0);
  const deadline = Date.now() + 2_000;
  for (let last = total(); Date.now() < deadline; ) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    const now = total();
    if (now - last <= 10_000) return;
    last = now;
  }
}

/** The server's CPU time over the run, per answer (what it cost to serve one, whatever the generator could do). */
function withCpu(sample: LoadSample, before: number | undefined, after: number | undefined): LoadSample {
  if (before === undefined || after === undefined || sample.answered === 0) return sample;
  return { ...sample, cpuPerRequestUs: (after - before) / sample.answered };
}

export function rateFigures(rounds: readonly LoadSample[]): RateFigures {
  const cpu = rounds.map((s) => s.cpuPerRequestUs).filter((us): us is number => us !== undefined);
  return {
    rps: median(rounds.map((s) => s.rps)),
    ...(cpu.length === rounds.length && cpu.length > 0 ? { cpuPerRequestUs: median(cpu), cpuMinUs: Math.min(...cpu), cpuMaxUs: Math.max(...cpu) } : {}),
    generatorCpuShare: median(rounds.map((s) => s.generatorCpuShare)),
    p50: median(rounds.map((s) => s.p50)),
    p99: median(rounds.map((s) => s.p99)),
    failed: rounds.reduce((sum, s) => sum + s.failed, 0),
    rounds,
  };
}

export function showRate(sample: LoadSample): string {
  const cpu = sample.cpuPerRequestUs === undefined ? '' : ` ${Math.round(sample.cpuPerRequestUs)} us CPU/req`;
  const generator = ` gen ${Math.round(sample.generatorCpuShare * 100)}%`;
  return `${rate(sample.rps)}/s p99 ${millis(sample.p99)}${cpu}${generator}${sample.failed ? ` (${sample.failed} failed)` : ''}`;
}
