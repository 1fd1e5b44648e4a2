import type { Progress } from './progress';

/** One thing measured once per round: a contender, or a contender at one registry size. */
export interface Entrant<S> {
  readonly label: string;
  run(round: RoundContext): Promise<S>;
}

/** What one entrant measured in the round just finished. */
export interface Finished<S> {
  readonly label: string;
  readonly sample: S;
}

/** The usual round line: every entrant and its sample. */
export function everyEntrant<S>(show: (sample: S) => string): (finished: readonly Finished<S>[]) => string {
  return (finished) => finished.map(({ label, sample }) => `${label} ${show(sample)}`).join(' · ');
}

export interface RoundContext {
  /** The unrecorded warm-up round: an entrant may run it shorter. */
  readonly warm: boolean;
  /** Call about once a second to show how far the run is. */
  readonly onTick: (second: number) => void;
}

export interface RoundPlan {
  readonly rounds: number;
  /** Run every entrant once first, unrecorded, so JIT warm-up is not measured. */
  readonly warmup: boolean;
}

/**
 * Runs the entrants in interleaved rounds (A B C, A B C...), so drift in the machine (thermal,
 * other load) falls on all of them alike, and prints one progress line per round.
 * Returns each entrant's samples, in the order given.
 */
export async function interleave<S>(
  suite: string,
  entrants: readonly Entrant<S>[],
  plan: RoundPlan,
  progress: Progress,
  describe: (finished: readonly Finished<S>[]) => string,
): Promise<S[][]> {
  const samples: S[][] = entrants.map(() => []);
  const total = plan.rounds + (plan.warmup ? 1 : 0);
  for (let round = 0; round < total; round++) {
    const warm = plan.warmup && round === 0;
    const name = warm ? 'warm-up' : `round ${round + (plan.warmup ? 0 : 1)}/${plan.rounds}`;
    const finished: Finished<S>[] = [];
    for (const [index, entrant] of entrants.entries()) {
      progress.status(`${suite} ${name}: ${entrant.label}…`);
      const onTick = (second: number) => progress.status(`${suite} ${name}: ${entrant.label} ${second} s`);
      const sample = await entrant.run({ warm, onTick });
      if (!warm) samples[index].push(sample);
      finished.push({ label: entrant.label, sample });
    }
    progress.line(`${suite} ${name}: ${describe(finished)}`);
  }
  return samples;
}
