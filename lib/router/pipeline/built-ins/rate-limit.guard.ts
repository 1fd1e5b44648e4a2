import { principalIdentity } from '../../../core/auth-info';
import { canonicalJson } from '../../../core/canonical-json';
import { ErrorCode } from '../../../core/error-codes';
import { PhantomError, ProtocolError } from '../../../core/errors';
import { Method } from '../../../core/methods';
import type { ExecutionContext } from '../execution-context';
import type { CanActivate } from '../guard';
import { TokenBuckets } from './token-buckets';

/** Options of `RateLimitGuard`; every one has a default. */
export interface RateLimitOptions {
  /** Calls one key may make in a burst: the size of its bucket (default 60). */
  readonly burst?: number;
  /** Calls per second a key earns back, up to `burst` (default 10). */
  readonly perSecond?: number;
  /**
   * Whom a bucket belongs to (default `'session'`):
   * - `'session'`: each session (`ctx.sessionId`); a request without one (the stateless era,
   *   in-process calls) counts against its principal, as with `'principal'`;
   * - `'principal'`: each principal the authentication hook attached (compared by value; an
   *   `AuthInfo` by issuer and subject, so every token of one subject shares a bucket), across
   *   its sessions; without authentication every caller is the same principal;
   * - a function of the call, returning the key.
   */
  readonly per?: 'session' | 'principal' | ((call: ExecutionContext) => string);
  /** Buckets kept at once (default 10,000, the default `maxSessions`); the least recently used are forgotten first. */
  readonly maxKeys?: number;
  /** Calls that do not count (default: `ping`, which clients send to keep a connection alive). */
  readonly skip?: (call: ExecutionContext) => boolean;
  /** A clock in milliseconds (default `performance.now`); for tests. */
  readonly now?: () => number;
}

const DEFAULTS = Object.freeze({ burst: 60, perSecond: 10, maxKeys: 10_000 });

const KEY_OF = Object.freeze({
  session: (call: ExecutionContext) => (call.context.sessionId === undefined ? principalKey(call) : `session ${call.context.sessionId}`),
  principal: principalKey,
});

function principalKey(call: ExecutionContext): string {
  return `principal ${canonicalJson(principalIdentity(call.context.principal) ?? null, 'the principal')}`;
}

const skipPing = (call: ExecutionContext) => call.method === Method.Ping;

/**
 * A built-in guard: a token bucket per session (or per principal, or per key of yours), so one
 * caller cannot flood the server. A call beyond the bucket is refused with -32029
 * (`ErrorCode.RateLimited`, `data.retryAfterMs`: when the next call would pass); over HTTP it
 * comes with status 200 in the session era (as every JSON-RPC error there) and 429 in the
 * stateless era. Only calls that reach the guards count: an unknown tool is refused before them.
 * Memory is bounded by `maxKeys`.
 *
 * @example
 * server.use(new RateLimitGuard({ burst: 20, perSecond: 2 }));             // every operation
 *
 * @UseGuards(new RateLimitGuard({ burst: 3, perSecond: 0.1, per: 'principal' }))
 * @Tool({ description: 'Send an email' }) send(args: Mail) { ... }          // one tool
 */
export class RateLimitGuard implements CanActivate {
  private readonly buckets: TokenBuckets;
  private readonly keyOf: (call: ExecutionContext) => string;
  private readonly skip: (call: ExecutionContext) => boolean;

  constructor(options: RateLimitOptions = {}) {
    const burst = options.burst ?? DEFAULTS.burst;
    const perSecond = options.perSecond ?? DEFAULTS.perSecond;
    const maxKeys = options.maxKeys ?? DEFAULTS.maxKeys;
    const problems = [
      ...(Number.isInteger(burst) && burst >= 1 ? [] : [`burst must be a whole number of at least 1, not ${burst}`]),
      ...(Number.isFinite(perSecond) && perSecond > 0 ? [] : [`perSecond must be a number above 0, not ${perSecond}`]),
      ...(Number.isInteger(maxKeys) && maxKeys >= 1 ? [] : [`maxKeys must be a whole number of at least 1, not ${maxKeys}`]),
    ];
    if (problems.length > 0) throw new PhantomError('rate_limit_invalid', `RateLimitGuard: ${problems.join('; ')}`);
    const per = options.per ?? 'session';
    this.keyOf = typeof per === 'function' ? per : KEY_OF[per];
    this.skip = options.skip ?? skipPing;
    this.buckets = new TokenBuckets({ capacity: burst, refillPerSecond: perSecond, maxBuckets: maxKeys, now: options.now ?? (() => performance.now()) });
  }

  /** Takes a token from the call's bucket (skipped calls take none); throws -32029 with `data.retryAfterMs` when it is empty. */
  canActivate(call: ExecutionContext): boolean {
    if (this.skip(call)) return true;
    const waitMs = this.buckets.take(this.keyOf(call));
    if (waitMs === 0) return true;
    throw new ProtocolError(ErrorCode.RateLimited, `Rate limit exceeded: retry in ${waitMs} ms`, { retryAfterMs: waitMs });
  }
}
