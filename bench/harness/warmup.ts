import type { LoadSample } from './load';
import type { Entrant } from './rounds';
import { median } from './stats';

/** When a contender counts as warm: its cost per call stopped moving. */
export interface Stability {
  /** Consecutive warm-up windows that must agree. */
  readonly windows: number;
  /** How far apart they may be: (max - min) / median of their cost per call. */
  readonly within: number;
  /** Stop warming after this long even if the cost still moves (the record says so). */
  readonly capSeconds: number;
}

/** How one entrant was warmed: what the report shows beside its figures. */
export interface WarmupRecord {
  /** Windows run, and their wall time in seconds. */
  readonly windows: number;
  readonly seconds: number;
  /** The last `Stability.windows` windows agreed within `Stability.within`; false: the cap ended it. */
  readonly stable: boolean;
  /** Each window's cost per call: the server's CPU microseconds where /proc tells them, else wall microseconds per answer. */
  readonly costPerCallUs: readonly number[];
  /** Whether `costPerCallUs` is server CPU (true) or wall time (false). */
  readonly cpu: boolean;
}

/**
 * Drives one entrant in warm-up windows (each `run({ warm: true })`, as long as the plan's
 * warm-up) until its last few windows cost the same per call, or the cap is reached. A peer
 * measured before its JIT has settled looks dearer than it is; a fixed short warm-up flatters
 * whoever settles first.
 */
export async function warmUntilStable(entrant: Entrant<LoadSample>, stability: Stability, onWindow: (record: WarmupRecord) => void): Promise<WarmupRecord> {
  const started = Date.now();
  const costs: number[] = [];
  let cpu = true;
  for (;;) {
    const sample = await entrant.run({ warm: true, onTick: () => undefined });
    if (sample.answered > 0) cpu &&= sample.cpuPerRequestUs !== undefined;
    costs.push(costOf(sample));
    const seconds = (Date.now() - started) / 1000;
    const stable = isStable(costs, stability);
    const record: WarmupRecord = { windows: costs.length, seconds, stable, costPerCallUs: costs, cpu };
    onWindow(record);
    if (stable || seconds >= stability.capSeconds) return record;
  }
}

/** The cost of one window's calls: server CPU per answer, else the wall time per answer; infinite for a window with no answer. */
function costOf(sample: LoadSample): number {
  if (sample.answered === 0) return Number.POSITIVE_INFINITY;
  if (sample.cpuPerRequestUs !== undefined) return sample.cpuPerRequestUs;
  return sample.rps > 0 ? 1e6 / sample.rps : Number.POSITIVE_INFINITY;
}

/** Whether the last `windows` costs agree within `within` of their median. */
export function isStable(costs: readonly number[], { windows, within }: Pick<Stability, 'windows' | 'within'>): boolean {
  if (costs.length < windows) return false;
  const last = costs.slice(-windows);
  if (!last.every(Number.isFinite)) return false;
  return (Math.max(...last) - Math.min(...last)) / median(last) <= within;
}
