/** The middle value (the mean of the two middle ones for an even count); NaN for none. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** `a / b`, or null when either side is missing or b is zero. */
export function ratio(a: number | undefined, b: number | undefined): number | null {
  if (a === undefined || b === undefined || !Number.isFinite(a) || !Number.isFinite(b) || b === 0) return null;
  return a / b;
}

/** The nearest-rank `q` quantile (0.5, 0.99) of some values; NaN for none. */
export function percentile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

/** What a run measured that a cost is computed from: its rate, and the server's CPU time per answer where /proc tells it. */
export interface Costed {
  readonly rps: number;
  readonly cpuPerRequestUs?: number;
}

/**
 * What the same call costs in run `b` over run `a` (1 is the same; 2 is twice as dear): the
 * server's CPU time per call where both runs have it (near the generator's limit rates hide the
 * server's cost), else the inverse of their rates. Null when either is missing.
 */
export function costRatio(a: Costed | undefined, b: Costed | undefined): number | null {
  if (a?.cpuPerRequestUs !== undefined && b?.cpuPerRequestUs !== undefined) return ratio(b.cpuPerRequestUs, a.cpuPerRequestUs);
  return ratio(a?.rps, b?.rps);
}
