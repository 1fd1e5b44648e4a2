import type { LoadSample } from './load';
import type { Entrant } from './rounds';

/** One entrant's cost over every slice it ran: the CPU of all its slices over all their answers. */
export interface SliceFigures {
  /** Server CPU per call, summed over the slices (not a median: every answer weighs the same). */
  readonly cpuPerCallUs: number;
  /** The cheapest and the dearest slice, per call. */
  readonly minUs: number;
  readonly maxUs: number;
  readonly answered: number;
  readonly slices: number;
}

/**
 * Runs the entrants in short slices, one after another, many times over, reversing the order each
 * cycle (A B C, C B A, A B C...), and sums each one's server CPU over its slices. On a shared
 * machine the cost of the same call drifts by tens of percent within a minute (bare node:http's
 * 3 s rounds of one run: 35, 51, 58 µs a call); slices a few seconds apart see the same drift,
 * so the ratios between entrants hold where each one's figure alone does not. No entrant sits
 * idle longer than a cycle, so none is measured cold. Entrants without a CPU figure (no /proc)
 * give `undefined`.
 */
export async function alternateSlices(
  entrants: readonly Entrant<LoadSample>[],
  cycles: number,
  onCycle: (cycle: number) => void,
): Promise<(SliceFigures | undefined)[]> {
  const totals = entrants.map(() => ({ cpuUs: 0, answered: 0, costs: [] as number[], measured: true }));
  for (let cycle = 0; cycle < cycles; cycle++) {
    onCycle(cycle + 1);
    const order = entrants.map((_, i) => i);
    if (cycle % 2 === 1) order.reverse();
    for (const i of order) {
      const sample = await entrants[i].run({ warm: false, onTick: () => undefined });
      const total = totals[i];
      if (sample.cpuPerRequestUs === undefined || sample.answered === 0) {
        total.measured = false;
        continue;
      }
      total.cpuUs += sample.cpuPerRequestUs * sample.answered;
      total.answered += sample.answered;
      total.costs.push(sample.cpuPerRequestUs);
    }
  }
  return totals.map((t) => (t.measured && t.answered > 0
    ? { cpuPerCallUs: t.cpuUs / t.answered, minUs: Math.min(...t.costs), maxUs: Math.max(...t.costs), answered: t.answered, slices: t.costs.length }
    : undefined));
}
