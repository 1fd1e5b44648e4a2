import type { Stability } from './harness/warmup';

/** How long and how often each suite measures. Absolute figures vary by machine; ratios less so. */
export interface Plan {
  readonly name: 'full' | 'quick';
  /** Connections the load generator keeps open, each with one request in flight. */
  readonly connections: number;
  /**
   * The rounds of every contender, then the token's cost in alternating slices (`suites/token-cost.ts`).
   * Each entrant is first warmed in windows of `warmupSeconds` until `stability` holds (or its cap).
   */
  readonly throughput: Timed & {
    readonly tokenSlices: number;
    readonly tokenSliceSeconds: number;
    readonly stability: Stability;
    /** Unrecorded calls before each recorded round, after the entrant sat idle through the others' (`Rewarm`). */
    readonly rewarmSeconds: number;
    /** After the rounds, the CPU targets' entrants in alternating slices (`harness/slices.ts`), with this many cheapest peers per call. */
    readonly slices: { readonly cycles: number; readonly seconds: number; readonly peers: number };
  };
  readonly scale: Timed & { readonly sizes: readonly number[] };
  readonly memory: { readonly rounds: number; readonly sessions: readonly number[] };
  readonly startup: { readonly rounds: number; readonly tools: number };
  /** Fresh processes, one per contender and round; the CPU read after this many calls in all. */
  readonly cold: { readonly rounds: number; readonly checkpoints: readonly number[] };
  readonly stdio: Timed;
  /** Each round: `tools/call` for `seconds`, then elicitation round trips one at a time for `elicitationSeconds`. */
  readonly cluster: Timed & { readonly elicitationSeconds: number };
}

export interface Timed {
  readonly rounds: number;
  readonly seconds: number;
  readonly warmupSeconds: number;
}

/**
 * `npm run bench`: about 27 minutes on two cores with the 14 HTTP contenders (bare, the SDK 1.32's
 * three modes, phantom's two eras with and without a token, the SDK 2.x's two protocol versions,
 * MCP-Nest's two modes, fastmcp's two), all but bare and the token ones also with the realistic
 * tool: throughput about 16 min (each of 25 entrants warmed in 1 s windows until three in a row
 * agree within 5%, at most 20 s: about 6 min; 4 rounds of 3 s each after 1 s of re-warming: about
 * 7.5 min; the targets' entrants in 10 cycles of 1 s slices: about 1.5 min; the token's cost 2 × 16
 * slices of 1 s), scale about 3 min, memory about 1.3 min (three session contenders), start-up and
 * stdio about 1 min, cold processes about 4 min (fresh processes × 5 rounds), cluster about 2 min.
 */
export const FULL: Plan = {
  name: 'full',
  connections: 50,
  throughput: { rounds: 4, seconds: 3, warmupSeconds: 1, rewarmSeconds: 1, slices: { cycles: 10, seconds: 1, peers: 2 }, tokenSlices: 8, tokenSliceSeconds: 1, stability: { windows: 3, within: 0.05, capSeconds: 20 } },
  scale: { rounds: 4, seconds: 1, warmupSeconds: 1, sizes: [10, 1_000, 10_000] },
  memory: { rounds: 3, sessions: [1_000, 10_000] },
  startup: { rounds: 5, tools: 1_000 },
  cold: { rounds: 5, checkpoints: [100, 1_000] },
  stdio: { rounds: 5, seconds: 2, warmupSeconds: 1 },
  cluster: { rounds: 4, seconds: 4, warmupSeconds: 2, elicitationSeconds: 2 },
};

/**
 * `npm run bench -- --quick`: every suite once and briefly, with registries and session counts up
 * to 1,000 only: a smoke test of the harness, under two minutes with every contender. Its ratios
 * are indicative at best (its heap retained per request least of all: a few thousand requests
 * after a warm-up too short to finish the JIT's work).
 */
export const QUICK: Plan = {
  name: 'quick',
  connections: 50,
  throughput: { rounds: 1, seconds: 1, warmupSeconds: 0.3, rewarmSeconds: 0.2, slices: { cycles: 2, seconds: 0.3, peers: 1 }, tokenSlices: 4, tokenSliceSeconds: 0.3, stability: { windows: 3, within: 0.05, capSeconds: 1.5 } },
  scale: { rounds: 1, seconds: 0.4, warmupSeconds: 0.2, sizes: [10, 1_000] },
  memory: { rounds: 1, sessions: [1_000] },
  startup: { rounds: 1, tools: 1_000 },
  cold: { rounds: 1, checkpoints: [100, 1_000] },
  stdio: { rounds: 1, seconds: 0.8, warmupSeconds: 0.3 },
  cluster: { rounds: 1, seconds: 1, warmupSeconds: 0.3, elicitationSeconds: 0.4 },
};
