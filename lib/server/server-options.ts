import type { DependencyContainer } from 'tsyringe';
import type { Constructor } from '../metadata/metadata-store';
import type { Diagnostics } from '../protocol/diagnostics';
import type { SessionStore } from '../protocol/session/session-store';
import type { Visibility } from '../router/visibility';
import type { CacheHint } from '../decorators/cache-hint';
import type { Icon } from '../protocol/wire.types';

/**
 * How a server is made.
 *
 * @example
 * const server = new PhantomServer({ name: 'weather', version: '1.0.0', providers: [WeatherTools] });
 */
export interface PhantomServerOptions {
  /** `serverInfo.name`. */
  readonly name: string;
  /** `serverInfo.version`. */
  readonly version: string;
  readonly title?: string;
  readonly icons?: readonly Icon[];
  readonly websiteUrl?: string;
  /** Told to the client at initialisation: how to use this server's tools well. */
  readonly instructions?: string;
  /** The classes whose `@Tool`, `@Resource` and `@Prompt` methods the server serves. */
  readonly providers: readonly Constructor[];
  /** `@Elicit` form classes, checked at start-up so a bad form fails there rather than mid-call. */
  readonly forms?: readonly Constructor[];
  /** The parent of the server's own child container (default: tsyringe's root container). */
  readonly container?: DependencyContainer;
  /** Items per page of every list (default 100). */
  readonly pageSize?: number;
  /** Signs pagination cursors; set it when several replicas must accept each other's cursors. */
  readonly cursorKey?: string;
  /** Where the framework reports handler failures (default: stderr). */
  readonly diagnostics?: Diagnostics;
  /** Which tools, prompts and resources a caller may see and use (default: all). */
  readonly visible?: Visibility;
  /** Where sessions live (default: in memory, one process). */
  readonly sessionStore?: SessionStore;
  /** Idle sessions expire after this long (default 30 minutes). */
  readonly sessionIdleMs?: number;
  /**
   * Sessions open at once (default 10,000; each holds about 1 KB). `initialize` beyond it is
   * refused with -32005 (`ErrorCode.TooManySessions`; HTTP 503) until one ends or expires.
   */
  readonly maxSessions?: number;
  /** How long `ctx.elicit`, `ctx.sample` and `ctx.listRoots` wait for the client (default 5 minutes). */
  readonly requestTimeoutMs?: number;
  /**
   * Signs the stateless era's `requestState` (HMAC-SHA256). Default: a random key per process;
   * set it when several replicas must accept each other's states.
   */
  readonly stateKey?: string;
  /** How long a `requestState` stays valid (default 10 minutes). */
  readonly stateTtlMs?: number;
  /** Caching hints of the stateless era when decorators say nothing: lists (default 60 s, public), reads (0, private). */
  readonly cacheDefaults?: { readonly lists?: Required<CacheHint>; readonly reads?: Required<CacheHint> };
}
