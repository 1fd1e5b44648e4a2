import type { SliceFigures } from '../harness/slices';
import type { HttpContenderId, StdioContenderId } from '../contenders';
import type { LoadSample } from '../harness/load';
import type { Stability, WarmupRecord } from '../harness/warmup';

/** A measure, or why the contender could not be measured. */
export type Measured<T> = T | { readonly unavailable: string };

export function isMeasured<T extends object>(value: Measured<T> | undefined): value is T {
  return value !== undefined && !('unavailable' in value);
}

/** Medians over rounds; `rounds` keeps every sample for whoever wants the spread. */
export interface RateFigures {
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  /** The server's CPU time per answer, in microseconds (median over the rounds), where /proc tells it. */
  readonly cpuPerRequestUs?: number;
  /** The lowest and highest of the rounds' CPU per answer, beside the median. */
  readonly cpuMinUs?: number;
  readonly cpuMaxUs?: number;
  /** The load generator's CPU time over wall time during the runs (median; 1 is one core busy throughout). */
  readonly generatorCpuShare?: number;
  /** Failed requests over all rounds (errors, timeouts, non-2xx); a sound run has 0. */
  readonly failed: number;
  readonly rounds: readonly LoadSample[];
}

/** Figures by HTTP contender, each measured or unavailable with the reason. */
export type ByContender<T extends object> = Partial<Record<HttpContenderId, Measured<T>>>;

/** The throughput suite: every HTTP contender with the echo call, and with the realistic one where the bench has it. */
export interface ThroughputFigures {
  /** The load generator was on one core and every server on the other (taskset was there, and two cores). */
  readonly pinned: boolean;
  readonly echo: ByContender<RateFigures>;
  /**
   * The realistic tool (five validated fields) where `CALLS` has it; absent when the bench has no
   * such call. The bearer-token contenders do not run it.
   */
  readonly realistic?: ByContender<RateFigures>;
  /** Heap kept for good per request served in the measured rounds, by contender. */
  readonly retained: Partial<Record<HttpContenderId, RetainedMemory>>;
  /**
   * The CPU targets' figures: bare, phantom's eras (both calls) and the cheapest peers of the
   * rounds, measured again in alternating slices after the rounds (`harness/slices.ts`); absent in
   * results written before slices were measured, where the targets take the rounds' medians.
   */
  readonly slices?: SlicedFigures;
  /** How each entrant was warmed before the rounds (absent in results written before warm-ups were recorded). */
  readonly warmup?: {
    /** Each window's length, and when the entrant counted as warm. */
    readonly windowSeconds: number;
    readonly stability: Stability;
    readonly echo: Partial<Record<HttpContenderId, WarmupRecord>>;
    readonly realistic?: Partial<Record<HttpContenderId, WarmupRecord>>;
  };
}

/** Alternating slices of the entrants the CPU targets compare, by call and contender. */
export interface SlicedFigures {
  readonly sliceSeconds: number;
  readonly cycles: number;
  readonly echo: Partial<Record<HttpContenderId, SliceFigures>>;
  readonly realistic: Partial<Record<HttpContenderId, SliceFigures>>;
}

/**
 * The server's heap after a full collection before the first measured round (after the warm-up:
 * what its first calls create lazily and the JIT's code are not counted) and after the last,
 * and the requests it answered in between (every call it was driven with).
 */
export interface RetainedMemory {
  readonly heapBefore: number;
  readonly heapAfter: number;
  readonly requests: number;
  /** (heapAfter - heapBefore) / requests, in bytes. */
  readonly perRequest: number;
}

/** The server CPU per call without a bearer token and with one, added up over alternating slices. */
export interface TokenCost {
  readonly withoutUs: number;
  readonly withUs: number;
  /** Slices of each side, and how long each ran. */
  readonly slices: number;
  readonly sliceSeconds: number;
  /** The generator and the server each had a core of their own (taskset was there). */
  readonly pinned?: boolean;
}

export interface SessionMemory {
  readonly sessions: number;
  /** Bytes per idle session, after a full collection, over the process's own baseline. */
  readonly heapPerSession: number;
  readonly rssPerSession: number;
}

export type ScaleOp = 'tools/call' | 'tools/list' | 'resources/read';
export type ScaleContenderId = Exclude<HttpContenderId, 'bare'>;

export interface StartupFigures {
  readonly declareMs: number;
  readonly startMs: number;
}

/** The cluster suite's setups (`CLUSTER_SETUPS` in `contenders.ts`), every one behind the same proxy. */
export type ClusterSetupId = 'one-node-memory' | 'one-node-redis' | 'two-nodes-redis';

/** One run of `tools/call` through the proxy, with where the CPU went. */
export interface ClusterLoadSample extends LoadSample {
  /**
   * `cpuPerRequestUs` is every node's CPU added up; these are the Redis server's (when its PID is
   * known: see `redisCpuCounted`), the proxy's and the load generator's (the bench's own process).
   */
  readonly redisCpuPerRequestUs?: number;
  readonly proxyCpuPerRequestUs?: number;
  readonly generatorCpuPerRequestUs?: number;
}

/** Elicitation round trips in one round, one at a time: milliseconds from the call to its result. */
export interface RoundTripSample {
  readonly roundTrips: number;
  readonly p50: number;
  readonly p99: number;
  /** Round trips that did not end with the tool's answer (a sound run has none). */
  readonly failed: number;
  /** Round trips whose answer the proxy sent to another node than the call's. */
  readonly crossNode: number;
}

export interface ClusterFigures {
  readonly echo: RateFigures & {
    readonly redisCpuPerRequestUs?: number;
    readonly proxyCpuPerRequestUs?: number;
    readonly generatorCpuPerRequestUs?: number;
    readonly rounds: readonly ClusterLoadSample[];
  };
  readonly elicitation: {
    readonly p50: number;
    readonly p99: number;
    /** Round trips over all rounds, and those of them that failed. */
    readonly roundTrips: number;
    readonly failed: number;
    /** Round trips whose answer landed on another node than the call's, over all rounds. */
    readonly crossNode: number;
    readonly rounds: readonly RoundTripSample[];
  };
}

/** One fresh process: its CPU time when it said it was ready, then per call from ready to each checkpoint. */
export interface ColdSample {
  readonly startupCpuMs: number;
  /** By checkpoint (the plan's `cold.checkpoints`): CPU microseconds from ready over the calls made so far. */
  readonly perCallUs: readonly number[];
  readonly failed: number;
}

/** Medians over the rounds (a fresh process each). */
export interface ColdFigures extends ColdSample {
  readonly rounds: readonly ColdSample[];
}

export interface Target {
  readonly name: string;
  /** The measured ratio (a difference in `unit` where one is named); null when a contender was unavailable. */
  readonly ratio: number | null;
  /** Set when `ratio` is not a ratio but a difference in milliseconds. */
  readonly unit?: 'ms';
  /** The bound the ratio must meet, e.g. ">= 0.5". */
  readonly goal: string;
  readonly holds: boolean;
  /** The figures behind the ratio, in words. */
  readonly detail: string;
}

export interface Machine {
  readonly nproc: number;
  readonly cpu: string;
  readonly node: string;
  readonly platform: string;
}

export interface BenchResults {
  readonly plan: 'full' | 'quick';
  /** Only some suites ran (`--only`). */
  readonly partial: boolean;
  readonly date: string;
  readonly machine: Machine;
  elapsedSeconds: number;
  readonly connections: number;
  throughput?: ThroughputFigures;
  /** By the era's contender without a token (`phantom-session`, `phantom-stateless`). */
  tokenCost?: Partial<Record<HttpContenderId, TokenCost>>;
  /** Every contender whose dialect opens sessions (without a bearer token). */
  memory?: ByContender<{ readonly bySessions: readonly SessionMemory[] }>;
  scale?: {
    /** The load generator on one core, the servers on the other. */
    readonly pinned: boolean;
    readonly sizes: readonly number[];
    readonly pageSize: number;
    readonly ops: Partial<Record<ScaleOp, Partial<Record<ScaleContenderId, Measured<{ readonly bySize: Readonly<Record<number, RateFigures>> }>>>>>;
  };
  startup?: { readonly tools: number; readonly phantom: StartupFigures; readonly sdk: StartupFigures };
  /** A fresh process's first calls, by contender (no bearer token). */
  cold?: { readonly checkpoints: readonly number[]; readonly byContender: ByContender<ColdFigures> };
  stdio?: Partial<Record<StdioContenderId, Measured<{
    readonly rtps: number;
    readonly rounds: readonly number[];
    /** The bench and the server were pinned to one CPU (taskset was there). */
    readonly sharedCore: boolean;
  }>>>;
  /** The cluster suite, or why it could not run (no Redis). */
  cluster?: Measured<{
    /** `REDIS_URL`, or a redis-server the bench started (whose CPU time it can read). */
    readonly redis: 'REDIS_URL' | 'own';
    /** Redis's CPU time was read (its PID known: the bench's own, or the `REDIS_URL` one found on this machine). */
    readonly redisCpuCounted: boolean;
    readonly setups: Partial<Record<ClusterSetupId, Measured<ClusterFigures>>>;
  }>;
  targets?: Target[];
}
