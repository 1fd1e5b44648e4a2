/**
 * How long, and by whom, a client may cache a result (protocol 2026-07-28 `ttlMs` and
 * `cacheScope`). `public`: nothing user-specific, shareable across callers; `private`: reusable
 * only within the same authorization context.
 *
 * @example
 * @Resource('docs://changelog', { cache: { ttlMs: 3_600_000, scope: 'public' } })
 */
export interface CacheHint {
  readonly ttlMs?: number;
  readonly scope?: 'public' | 'private';
}
