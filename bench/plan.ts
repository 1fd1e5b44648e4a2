/** How long and how often each suite measures. Absolute figures vary by machine; ratios less so. */
export interface Plan {
  readonly name: 'full' | 'quick';
  /** Connections the load generator keeps open, each with one request in flight. */
  readonly connections: number;
  /** The rounds of every contender, then the token's cost in alternating slices (`suites/token-cost.ts`). */
  readonly throughput: Timed & { readonly tokenSlices: number; readonly tokenSliceSeconds: number };
  readonly scale: Timed & { readonly sizes: readonly number[] };
  readonly memory: { readonly rounds: number; readonly sessions: readonly number[] };
  readonly startup: { readonly rounds: number; readonly tools: number };
  readonly stdio: Timed;
  /** Each round: `tools/call` for `seconds`, then elicitation round trips one at a time for `elicitationSeconds`. */
  readonly cluster: Timed & { readonly elicitationSeconds: number };
}

export interface Timed {
  readonly rounds: number;
  readonly seconds: number;
  readonly warmupSeconds: number;
}

/** `npm run bench`: about ten minutes on two cores. */
export const FULL: Plan = {
  name: 'full',
  connections: 50,
  throughput: { rounds: 5, seconds: 5, warmupSeconds: 3, tokenSlices: 10, tokenSliceSeconds: 1 },
  scale: { rounds: 5, seconds: 1, warmupSeconds: 1, sizes: [10, 1_000, 10_000] },
  memory: { rounds: 3, sessions: [1_000, 10_000] },
  startup: { rounds: 5, tools: 1_000 },
  stdio: { rounds: 5, seconds: 2, warmupSeconds: 1 },
  cluster: { rounds: 5, seconds: 5, warmupSeconds: 3, elicitationSeconds: 2 },
};

/**
 * `npm run bench -- --quick`: every suite once and briefly, with registries and session counts up
 * to 1,000 only: a smoke test of the harness, about a minute. Its ratios are indicative at best.
 */
export const QUICK: Plan = {
  name: 'quick',
  connections: 50,
  throughput: { rounds: 1, seconds: 1.5, warmupSeconds: 0.5, tokenSlices: 6, tokenSliceSeconds: 0.4 },
  scale: { rounds: 1, seconds: 0.5, warmupSeconds: 0.3, sizes: [10, 1_000] },
  memory: { rounds: 1, sessions: [1_000] },
  startup: { rounds: 1, tools: 1_000 },
  stdio: { rounds: 1, seconds: 1, warmupSeconds: 0.5 },
  cluster: { rounds: 1, seconds: 1.5, warmupSeconds: 0.5, elicitationSeconds: 0.5 },
};
