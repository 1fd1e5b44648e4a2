import type { Authenticate } from '../../core/auth-decision';
import type { OAuthResourceServer } from '../../auth/oauth-resource-server';
import type { EventStore } from '../../protocol/seams/event-store';
import type { ServerCardOptions } from './server-card';

/** The documented defaults of the limits below. */
export const HTTP_DEFAULTS = Object.freeze({
  maxBodyBytes: 4 * 1024 * 1024,
  maxDiscardBytes: 8 * 1024 * 1024,
  bodyTimeoutMs: 30_000,
  headersTimeoutMs: 10_000,
  retryMs: 1000,
  maxSseBufferBytes: 1024 * 1024,
  sseStallTimeoutMs: 15_000,
  maxStreamsPerSession: 64,
  finishedStreamGraceMs: 30_000,
  undeliveredStreamTtlMs: 5 * 60_000,
  livenessPath: '/healthz',
  readinessPath: '/readyz',
  readinessCheckTimeoutMs: 2_000,
  drainDelayMs: 0,
});

/**
 * Streamable HTTP settings. The defaults are safe for a server on the developer's machine:
 * loopback only, loopback Host and Origin only, 4 MiB bodies that must arrive within 30 s.
 *
 * @example
 * await server.listen({ port: 3000, authenticate: ({ headers }) =>
 *   headers.authorization === `Bearer ${token}` ? { allow: true, principal: { user: 'me' } }
 *     : { allow: false, status: 401, wwwAuthenticate: 'Bearer realm="mcp"' } });
 */
export interface HttpOptions {
  /**
   * The endpoint path (default `/mcp`). A mounted handler answers whatever its host routes to it,
   * and only reads this to know where its server card is (`<path>/server-card`): give the path as
   * requests carry it (`/api/mcp` for an endpoint the host serves there).
   */
  readonly path?: string;
  /**
   * Host header values accepted (DNS-rebinding protection), with or without a port. Default:
   * loopback names. Pass `['*']` to accept any (behind a proxy that checks it).
   */
  readonly allowedHosts?: readonly string[];
  /** Origins accepted when a browser sends one (403 otherwise). Default: loopback origins. `['*']`: any. */
  readonly allowedOrigins?: readonly string[];
  /** Largest request body, in bytes (default 4 MiB); larger ones get 413. */
  readonly maxBodyBytes?: number;
  /**
   * How much of a body past `maxBodyBytes` is read and dropped before the 413 goes out, in bytes
   * (default 8 MiB). The 413 closes the connection: closed while the client is still sending,
   * it is reset, and a client (Node's fetch among them) may see `ECONNRESET` instead of the 413.
   * So the rest is drained first (within `bodyTimeoutMs`); a body that declares or sends more
   * than `maxBodyBytes + maxDiscardBytes` is answered at once. `0`: always at once. Bodies read
   * from a Node request (`listen()`, `httpHandler()`); a `fetchHandler()` host owns its connection.
   */
  readonly maxDiscardBytes?: number;
  /**
   * How long a POST body may take to arrive once the handler starts reading it, in ms (default
   * 30 s); a slower one gets 408 and its connection is closed. A body a host framework's parser
   * already read is not timed here (the framework has its own deadline).
   */
  readonly bodyTimeoutMs?: number;
  /** Serve the standalone GET stream (default true; 405 when false). */
  readonly enableGetStream?: boolean;
  /** Where SSE events are kept for `Last-Event-ID` resumption (default: in memory). */
  readonly eventStore?: EventStore;
  /** The `retry` hint sent on SSE streams, in ms (default 1000). */
  readonly retryMs?: number;
  /**
   * Bytes an SSE connection may hold that its client has not read (default 1 MiB) before the
   * client must show it is reading: past it, a connection whose client takes no byte at all for
   * `sseStallTimeoutMs` is dropped, instead of the server buffering for it without end. One event
   * larger than this (a big tool result) is not a stall: a client that reads gets every byte. A
   * resumable stream's events are in the event store, so the client can come back with
   * `Last-Event-ID`; a stateless-era call is cancelled, as when its client closes the stream.
   */
  readonly maxSseBufferBytes?: number;
  /**
   * How long a client holding more than `maxSseBufferBytes` unread may go without reading any of
   * it, in ms (default 15 s), before its connection is dropped.
   */
  readonly sseStallTimeoutMs?: number;
  /**
   * SSE streams of one session kept resumable at once (default 64); beyond, the oldest ended
   * one is forgotten (a stream still going is never forgotten: each is a request running).
   */
  readonly maxStreamsPerSession?: number;
  /**
   * How long an SSE stream whose last event went out on a live connection stays resumable, in
   * ms (default 30 s: that connection may have died unnoticed).
   */
  readonly finishedStreamGraceMs?: number;
  /** How long an SSE stream that ended while its client was away stays resumable, in ms (default 5 minutes). */
  readonly undeliveredStreamTtlMs?: number;
  /**
   * A custom authentication hook (API keys, a scheme of your own): it sees every request's headers
   * first and decides. For OAuth bearer tokens use `auth`; setting both is a start-up error
   * (`PhantomError` `http_auth_conflict`): one endpoint has one way in.
   */
  readonly authenticate?: Authenticate;
  /**
   * The endpoint is an OAuth 2.1 resource server: pass what `oauthResourceServer(...)` returns.
   * Every request's bearer token is verified first (401, 403 or 503 otherwise); the
   * protected-resource metadata (RFC 9728) is served, without authentication, at the path of
   * `auth.resourceMetadataUrl` and at `/.well-known/oauth-protected-resource`, listing the
   * scopes the decorators declare; a call that lacks a scope gets 403 `insufficient_scope` naming
   * them, in both eras.
   *
   * @example
   * await server.listen({ port: 3000, auth: oauthResourceServer({ issuer: 'https://sso.example.com/realms/notes', audience: 'http://127.0.0.1:3000/mcp' }) });
   */
  readonly auth?: OAuthResourceServer;
  /**
   * How long `close()` lets requests being answered finish, in ms, before it cancels them and
   * answers each with an error (default: the server's `shutdownTimeoutMs`, 10 s).
   */
  readonly shutdownTimeoutMs?: number;
  /** Extra headers CORS lets browsers send (Content-Type, Authorization and the MCP headers are always allowed). */
  readonly corsAllowHeaders?: readonly string[];
  /**
   * The server card (the `experimental-ext-server-card` extension, SEP-2127), served at
   * `<path>/server-card` (`/mcp/server-card`) to anyone, without authentication, with CORS and
   * ETag revalidation; `false`: none. Served when a registry name (`serverCard.name`, else the
   * server's name when it is `namespace/name`) and the server option `description` are known;
   * otherwise that path answers 404 and start-up says why. A malformed `serverCard` option is a
   * start-up error (`PhantomError` `server_card_option`).
   *
   * @example
   * await server.listen({ port: 3000, serverCard: { name: 'io.github.alice/notes' } });
   */
  readonly serverCard?: false | ServerCardOptions;
}

/** One thing readiness needs: `true` when it is there (a store reachable, a cache warm). */
export type ReadinessCheck = () => boolean | Promise<boolean>;

/**
 * The probes `listen()` serves beside the MCP endpoint, for an orchestrator or a load balancer.
 * They answer GET and HEAD with a small JSON body, before the Host and Origin checks and without
 * the `authenticate` hook: a kubelet or a load balancer probes with the pod's IP as the Host and
 * no credentials, and the answers say nothing but up or down.
 *
 * @example
 * await server.listen({ port: 3000, host: '0.0.0.0', allowedHosts: ['mcp.example.com'],
 *   health: { ready: () => redis.isReady, drainDelayMs: 5_000 } });
 */
export interface HealthOptions {
  /** Liveness: 200 `{"status":"ok"}` as long as the process serves HTTP (default `/healthz`). */
  readonly livenessPath?: string;
  /**
   * Readiness (default `/readyz`): 200 `{"status":"ready"}`; 503 `{"status":"draining"}` once
   * `close()` started, 503 `{"status":"not ready"}` while a check fails.
   */
  readonly readinessPath?: string;
  /**
   * What readiness needs besides not draining. A check that answers anything but `true`, throws, or
   * takes longer than `readinessCheckTimeoutMs` makes the server not ready. Checks run on each probe,
   * at once; probes that arrive while they run share their verdict.
   */
  readonly ready?: ReadinessCheck | readonly ReadinessCheck[];
  /** How long one readiness check may take, in ms (default 2000). */
  readonly readinessCheckTimeoutMs?: number;
  /**
   * On `close()`, how long to go on serving with readiness at 503 before refusing new connections,
   * in ms (default 0): time for a load balancer to take this instance out before it goes. With 0,
   * new connections are refused at once, which probes see as not ready.
   */
  readonly drainDelayMs?: number;
}

/**
 * `listen()` settings. Besides the handler's own body deadline, Node drops a connection whose
 * request headers are not in within `headersTimeoutMs`, and one whose whole request (headers and
 * body) is not in within `headersTimeoutMs + bodyTimeoutMs`, with 408 (Node's own defaults are
 * 60 s and 300 s). Responses are not timed: SSE streams stay open as long as they are used.
 */
export interface ListenOptions extends HttpOptions {
  readonly port?: number;
  /** Interface to bind (default 127.0.0.1: reachable from this machine only). */
  readonly host?: string;
  /** How long a client may take to send its request headers, in ms (default 10 s). */
  readonly headersTimeoutMs?: number;
  /**
   * Open connections at most (default: the process's open-file limit less 128, read from
   * `/proc/self/limits`; 1,000 where it cannot be read). One more takes the place of the oldest
   * connection that has no request being answered (one still sending its headers, or idle between
   * requests); when every connection is answering one, it is closed at once.
   */
  readonly maxConnections?: number;
  /** The liveness and readiness probes (default: on, at `/healthz` and `/readyz`); `false`: none. */
  readonly health?: false | HealthOptions;
}
