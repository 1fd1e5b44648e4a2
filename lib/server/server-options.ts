import type { TaskStore } from '../protocol/seams/task-store';
import type { TaskOptions } from '../protocol/tasks/task-options';
import type { DependencyContainer } from 'tsyringe';
import type { Constructor } from '../metadata/metadata-store';
import type { Resolve } from './resolved-instance-source';
import type { Diagnostics, WarningRateLimit } from '../core/diagnostics';
import type { SessionStore } from '../protocol/seams/session-store';
import type { SessionBus } from '../protocol/seams/session-bus';
import type { SharedStores } from '../protocol/seams/shared-stores';
import type { Extension } from '../router/extensions/extension';
import type { Visibility } from '../router/visibility';
import type { TelemetryOptions } from '../router/pipeline/built-ins/telemetry.interceptor';
import type { CacheHint } from '../metadata/cache-hint';
import type { Icon } from '../core/wire.types';

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
  /**
   * What the server does, in one sentence: `serverInfo.description`, and the description of what
   * `phantom-mcp` writes for the MCP registry, desktop bundles and the server card (which take at
   * most 100 characters).
   */
  readonly description?: string;
  /**
   * The environment variables the server reads, declared so that what installs it can ask for
   * them: the registry's `server.json` (`environmentVariables`), a desktop bundle's `user_config`,
   * VS Code's `inputs` for the secret ones. Declaring one reads nothing: the server's own code
   * reads `process.env` as before.
   */
  readonly environment?: readonly EnvironmentVariable[];
  /** Told to the client at initialisation: how to use this server's tools well. */
  readonly instructions?: string;
  /** The classes whose `@Tool`, `@Resource` and `@Prompt` methods the server serves. */
  readonly providers: readonly Constructor[];
  /** `@Elicit` form classes, checked at start-up so a bad form fails there rather than mid-call. */
  readonly forms?: readonly Constructor[];
  /** The parent of the server's own child container (default: tsyringe's root container). */
  readonly container?: DependencyContainer;
  /**
   * Another DI container supplies the instances of the providers, and of the guards and
   * interceptors given as classes, instead of the server's tsyringe container: a Nest app passes
   * `(cls) => moduleRef.get(cls, { strict: false })`. Each class is asked for once, when the server
   * is made (or on `add()` and `use()`), so one it does not hold fails there, in the
   * `DefinitionError`; its answer is kept, one instance per class. That container owns the wiring,
   * so the tsyringe checks are skipped.
   *
   * @example
   * new PhantomServer({ name: 'notes', version: '1.0.0', providers: [NotesTools], resolve: (cls) => app.get(cls) });
   */
  readonly resolve?: Resolve;
  /** Items per page of every list (default 100). */
  readonly pageSize?: number;
  /**
   * Signs pagination cursors (default: a random key per process; with a `store`, one derived from
   * the secret the replicas share, so any replica accepts another's cursors).
   */
  readonly cursorKey?: string;
  /** Where the framework reports handler failures (default: stderr). */
  readonly diagnostics?: Diagnostics;
  /**
   * Warnings a client can cause at will (a response to no pending request) are rate-limited: at
   * most `lines` of one kind per `windowMs` (default 10 per minute), then one line saying how
   * many were suppressed.
   */
  readonly warningRateLimit?: WarningRateLimit;
  /** Which tools, prompts and resources a caller may see and use (default: all). */
  readonly visible?: Visibility;
  /**
   * MCP extensions the server serves (docs/guide/extensions.md): the Skills extension (`skills()`) or
   * your own. Each is advertised under `capabilities.extensions` and its methods are served in both
   * eras through the operation pipeline. Checked at construction, every problem at once.
   */
  readonly extensions?: readonly Extension[];
  /**
   * OpenTelemetry traces and metrics for every operation (a `TelemetryInterceptor`, outermost,
   * before anything `use()` adds): `true` for the global providers, or its options. Needs
   * `@opentelemetry/api` and an SDK the application sets up; without them it costs nothing.
   */
  readonly telemetry?: boolean | TelemetryOptions;
  /**
   * Longest resource URI a request may name, in characters (default 8192): `resources/read`,
   * `resources/subscribe`, `resources/unsubscribe` and completion refs; longer ones get -32602.
   */
  readonly maxUriLength?: number;
  /**
   * Whether a resource template's value may decode to a control character (`%00`, `%0A`, DEL, C1):
   * by default (`false`) `resources/read` of such a URI gets -32602 naming the variable, and the
   * handler never runs. Values are otherwise passed as RFC 6570 decodes them, `../` included: see
   * docs/guide/resources.md for turning one into a file path safely.
   */
  readonly allowTemplateControlChars?: boolean;
  /**
   * What several replicas share (default: nothing, everything in this process): sessions, SSE
   * event logs and the session bus, on one backend. `redis('redis://10.0.0.5:6379')` for Redis;
   * see docs/guide/replicas.md. `listen()` and `connect()` open it first (and
   * fail at once when it cannot be reached; `start()` does the same for a mounted handler),
   * readiness reports it, `close()` closes it. Not together with `sessionStore` or `bus`.
   */
  readonly store?: SharedStores;
  /** Where sessions live (default: in memory, one process). */
  readonly sessionStore?: SessionStore;
  /**
   * What carries messages between replicas (default: in-process, one node): the client's answer to
   * a server-to-client request, cancellations, notifications for a stream held elsewhere, session
   * ends, list changes, resource updates and URL-elicitation completions. `close()` closes it.
   */
  readonly bus?: SessionBus;
  /**
   * Where tasks live (default: the `store`'s when there is one, else in memory): tasks survive
   * the node that started them only in a shared one.
   */
  readonly taskStore?: TaskStore;
  /** The limits of tasks (`@Tool({ task })`): ttl, poll interval, tasks per caller, the lease of a running task, page size. */
  readonly tasks?: TaskOptions;
  /**
   * Idle sessions expire after this long (default 30 minutes). Every message of a session counts
   * as activity, and so does an open GET stream or pipe; a session with a request running never expires.
   */
  readonly sessionIdleMs?: number;
  /**
   * How deeply containers may nest in one incoming message, on every transport (default 100, the
   * message itself being level 1). A deeper request is refused with -32600 and its own id.
   */
  readonly maxJsonDepth?: number;
  /**
   * The share of V8's heap limit past which new requests are refused (default 0.9; `1`: never):
   * -32010, with HTTP 503 and `Retry-After`, while responses and notifications still get in. A
   * burst of large messages then costs its clients a retry instead of aborting the process.
   */
  readonly maxHeapUsedRatio?: number;
  /**
   * Items any one array in a tool's arguments may hold (default 1,000), and ten times that all
   * arrays of one call together. A longer one is refused before validation runs (an `isError`
   * result naming it), and every array of a tool's listed
   * input schema that gives no `maxItems` carries this one: validating a nested DTO costs
   * microseconds per item, and one call must not hold the event loop for every other session.
   */
  readonly maxArrayItems?: number;
  /**
   * Sessions open at once (default 10,000; each holds about 1 KB). `initialize` beyond it is
   * refused with -32005 (`ErrorCode.TooManySessions`; HTTP 503) until one ends or expires.
   */
  readonly maxSessions?: number;
  /**
   * How long `close()` lets calls in flight finish, in ms (default 10 s), on every transport the
   * server runs; those still running then are cancelled (`ctx.signal` aborts with a
   * `ServerClosingError`) and answered with -32000 (`ErrorCode.ServerClosing`). `listen()` and
   * `httpHandler()` may set their own.
   */
  readonly shutdownTimeoutMs?: number;
  /** How long `ctx.elicit`, `ctx.sample` and `ctx.listRoots` wait for the client (default 5 minutes). */
  readonly requestTimeoutMs?: number;
  /**
   * Requests one session may have running at once (default 100). More are answered at once with
   * the JSON-RPC error -32010 (`ErrorCode.TooManyRequests`; over HTTP with status 200, so clients
   * read it as any other error); lifecycle requests such as `ping` are never refused.
   */
  readonly maxInFlightPerSession?: number;
  /**
   * Requests this node may be answering at once, across every session and caller of both eras
   * (default 10,000): a request counts until its handler ends (a call that became a task, until
   * the task's handler ends). Past it, -32010 (`data.maxInFlightPerNode`): each session's own cap
   * times the sessions open is no bound for the node.
   */
  readonly maxInFlightPerNode?: number;
  /**
   * Resources one session may be subscribed to at once (default 1,000): a template matches any
   * number of URIs, and each subscription is kept with the session. `resources/subscribe` beyond
   * it is refused with -32602 (`data.maxSubscriptionsPerSession`) until the client unsubscribes.
   */
  readonly maxSubscriptionsPerSession?: number;
  /**
   * Bytes one session's unanswered server-to-client requests (elicitations, sampling, roots) may
   * hold, counted as their params' JSON (default 8 MiB). Each keeps its message until the client
   * answers, the request times out or the session ends; one that would go past it is not sent and
   * `ctx.elicit` (or `sample`, `listRoots`) rejects with `pending_bytes`, which a tool reports as
   * an `isError` result.
   */
  readonly maxPendingBytesPerSession?: number;
  /**
   * Stateless era: `subscriptions/listen` streams open at once on this node (default 10,000);
   * more are refused with -32010 (HTTP 503) until one ends. Each holds a connection and its filter.
   */
  readonly maxListenStreams?: number;
  /**
   * Signs the stateless era's `requestState` (HMAC-SHA256). Default: a random key per process;
   * with a `store`, one derived from the secret the replicas share, so a retry may land on any
   * replica. Set it to choose the key yourself.
   */
  readonly stateKey?: string;
  /** How long a `requestState` stays valid (default 10 minutes). */
  readonly stateTtlMs?: number;
  /** Caching hints of the stateless era when decorators say nothing: lists (default 60 s, public), reads (0, private). */
  readonly cacheDefaults?: { readonly lists?: Required<CacheHint>; readonly reads?: Required<CacheHint> };
}

/** An environment variable a server reads (see `PhantomServerOptions.environment`). */
export interface EnvironmentVariable {
  /** Its name, e.g. `WEATHER_API_KEY`. */
  readonly name: string;
  /** What it is for, shown to whoever installs the server. */
  readonly description: string;
  /** Whether the server cannot run without it. Default `false`. */
  readonly required?: boolean;
  /** Whether it holds a secret (a token, a password): installers ask for it masked and never write it in plain files. Default `false`. */
  readonly secret?: boolean;
  /** What the server uses when it is not set. */
  readonly default?: string;
  /** The kind of value: `string` (default), `number`, `boolean` or `filepath`. */
  readonly format?: 'string' | 'number' | 'boolean' | 'filepath';
  /** The only values it may take. */
  readonly choices?: readonly string[];
}
