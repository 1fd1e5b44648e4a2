import { randomBytes } from 'node:crypto';
import type { Cancellation } from '../../core/cancellation';
import { Context } from '../../context/context';
import { serverCapabilities } from '../capabilities';
import { WarningThrottle, type WarningRateLimit } from '../../core/diagnostics';
import { ErrorCode } from '../../core/error-codes';
import { ProtocolError } from '../../core/errors';
import { DEFAULT_MAX_JSON_DEPTH, failure, notification, success, type JsonRpcNotification, type JsonRpcRequest, type JsonRpcResponse } from '../../core/jsonrpc';
import { LIST_CHANGED, Method, Notification } from '../../core/methods';
import { LIFECYCLE_HANDLERS, type LifecycleDeps, type LifecycleMethod } from '../session-era/lifecycle.handlers';
import { SessionChannel, type ChannelHost } from '../session-era/session-channel';
import { DEFAULT_SESSION_IDLE_MS, InMemorySessionStore, type SessionStore } from '../session/session-store';
import type { SessionState } from '../session/session-state';
import { negotiateVersion } from '../versions';
import type { ClientCapabilities, Implementation, JsonObject } from '../../core/wire.types';
import type { Exchange, StandaloneSink } from './exchange';
import type { ServedApplication } from './served-application';
import { InFlight } from './in-flight';
import { PendingRequests } from './pending-requests';
import { SubscriptionHub } from './subscription-hub';
import { StatelessEra, type StatelessOptions } from '../stateless-era/stateless-era';
import type { CacheDefaults } from '../stateless-era/result-decoration';

export interface ProtocolOptions {
  /** Where sessions live (default: in memory). */
  readonly sessionStore?: SessionStore;
  /** Sessions idle this long expire (default 30 minutes; in-memory store only). */
  readonly sessionIdleMs?: number;
  /** Sessions open at once (default 10,000); `initialize` beyond is refused with -32005. */
  readonly maxSessions?: number;
  /** How long server-to-client requests wait for an answer (default 5 minutes). */
  readonly requestTimeoutMs?: number;
  /** Requests one session may have running at once (default 100); more are refused with -32010. */
  readonly maxInFlightPerSession?: number;
  /** Resources one session may be subscribed to at once (default 1,000); more are refused with -32602. */
  readonly maxSubscriptionsPerSession?: number;
  /** Warnings a client can cause: at most this many lines of one kind per window (default 10 a minute). */
  readonly warningRateLimit?: WarningRateLimit;
  /** How deeply a message may nest (default `DEFAULT_MAX_JSON_DEPTH`, 100); deeper ones are refused with -32600. */
  readonly maxJsonDepth?: number;
  /** Stateless era: signs `requestState`, its lifetime, and caching defaults. */
  readonly stateless?: Omit<StatelessOptions, 'cache'> & { readonly cache?: Partial<CacheDefaults> };
}

const MAX_TRACKED_URL_ELICITATIONS = 10_000;

const DEFAULT_CACHE: CacheDefaults = Object.freeze({
  lists: Object.freeze({ ttlMs: 60_000, scope: 'public' as const }),
  reads: Object.freeze({ ttlMs: 0, scope: 'private' as const }),
  discover: Object.freeze({ ttlMs: 60_000, scope: 'public' as const }),
  listsArePrivate: false,
});

/**
 * The transport-independent heart of the protocol: initialisation, the session-era methods,
 * dispatch to the router with a per-request context, cancellation, and routing of the client's
 * responses to the server-to-client requests waiting for them.
 */
export class ProtocolCore implements ChannelHost {
  readonly sessions: SessionStore;
  readonly pending = new PendingRequests();
  /** Stateless-era `subscriptions/listen` streams. */
  readonly listeners = new SubscriptionHub();
  private readonly inFlight = new InFlight();
  private readonly standalone = new Map<string, StandaloneSink>();
  private readonly urlElicitations = new Map<string, { sessionId: string; exchange: Exchange }>();
  /** Protocol 2026-07-28: per-request `_meta`, no sessions. */
  readonly stateless: StatelessEra;
  /** The nesting limit every transport applies when it classifies a message. */
  readonly maxJsonDepth: number;
  private readonly endedListeners = new Set<(sessionId: string) => void>();
  private readonly requestTimeoutMs: number | undefined;
  /** Requests one session may have running at once; a pipe in the stateless era is capped alike. */
  readonly maxInFlightPerSession: number;
  private readonly clientWarnings: WarningThrottle;
  private readonly idleMs: number;
  private readonly maxSessions: number;
  private readonly lifecycle: LifecycleDeps;
  private readonly unsubscribe: () => void;
  private readonly stopExpiry: () => void;

  constructor(readonly server: ServedApplication, options: ProtocolOptions = {}) {
    this.sessions = options.sessionStore ?? new InMemorySessionStore({ idleMs: options.sessionIdleMs, isBusy: (id) => this.inFlight.busy(id) });
    // Whatever the store, a session that expires takes its requests, waiters and streams with it.
    this.stopExpiry = this.sessions.onExpired((id) => this.forget(id));
    this.requestTimeoutMs = options.requestTimeoutMs;
    this.maxInFlightPerSession = options.maxInFlightPerSession ?? 100;
    this.clientWarnings = new WarningThrottle(server.diagnostics, options.warningRateLimit);
    this.maxJsonDepth = options.maxJsonDepth ?? DEFAULT_MAX_JSON_DEPTH;
    this.idleMs = options.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS;
    this.maxSessions = options.maxSessions ?? 10_000;
    this.lifecycle = { resources: server.router, maxSubscriptions: options.maxSubscriptionsPerSession ?? 1000 };
    this.stateless = new StatelessEra(server, this.listeners, (uri) => this.resourceUpdated(uri), {
      ...options.stateless,
      cache: { ...DEFAULT_CACHE, listsArePrivate: server.filtersByPrincipal, ...options.stateless?.cache },
    });
    this.unsubscribe = server.onListChanged((kind) => {
      this.broadcast(notification(LIST_CHANGED[kind]));
      this.listeners.listChanged(kind);
    });
  }

  /** Answers `initialize`: negotiates the version and creates the session. */
  async initialize(message: JsonRpcRequest, principal?: unknown, sessionId = newSessionId()): Promise<{ state?: SessionState; response: JsonRpcResponse }> {
    const params = message.params ?? {};
    const problem = initializeProblem(params);
    if (problem) return { response: failure(message.id, { code: ErrorCode.InvalidParams, message: problem }) };
    if (await this.sessions.count() >= this.maxSessions) {
      return { response: failure(message.id, { code: ErrorCode.TooManySessions, message: `Too many sessions: this server holds at most ${this.maxSessions}; retry once one has ended` }) };
    }
    const now = Date.now();
    const state: SessionState = {
      id: sessionId,
      protocolVersion: negotiateVersion(params.protocolVersion),
      clientInfo: params.clientInfo as Implementation,
      clientCapabilities: (params.capabilities ?? {}) as ClientCapabilities,
      initialized: false,
      subscriptions: [],
      principal,
      createdAt: now,
      lastActiveAt: now,
    };
    await this.sessions.save(state);
    const result: JsonObject = {
      protocolVersion: state.protocolVersion,
      capabilities: serverCapabilities(this.server.registry),
      serverInfo: this.server.info,
    };
    if (this.server.instructions !== undefined) result.instructions = this.server.instructions;
    return { state, response: success(message.id, result) };
  }

  /**
   * Answers one request of an initialised session; `undefined` when it was cancelled (no answer is
   * sent). `cancellation` is the transport's, when it may cancel the request itself (closing): it is
   * the handler's `ctx.signal`, and `notifications/cancelled` cancels it too.
   */
  async request(state: SessionState, message: JsonRpcRequest, exchange: Exchange, cancellation?: Cancellation): Promise<JsonRpcResponse | undefined> {
    try {
      return await this.answer(state, message, exchange, cancellation);
    } finally {
      // The idle clock starts when the last request ends, not when it began (a running request
      // keeps its session from expiring), and every request counts: a ping too.
      this.touch(state.id);
    }
  }

  private async answer(state: SessionState, message: JsonRpcRequest, exchange: Exchange, cancellation: Cancellation | undefined): Promise<JsonRpcResponse | undefined> {
    if (message.method === Method.Initialize) {
      return failure(message.id, { code: ErrorCode.InvalidRequest, message: 'Invalid Request: the session is already initialised' });
    }
    const lifecycle = LIFECYCLE_HANDLERS.get(message.method);
    if (lifecycle) return this.runLifecycle(state, message, lifecycle, exchange);
    if (!this.server.router.handles(message.method)) {
      return failure(message.id, ProtocolError.methodNotFound(message.method).toJSON());
    }
    // A request that never returns holds its handler, its params and what it waits for: a client
    // may not pile them up without bound (answered, not thrown: stdio has no HTTP status).
    const refused = this.inFlight.refusal(state.id, message.id, this.maxInFlightPerSession);
    if (refused) return failure(message.id, refused);
    const controller = this.inFlight.start(state.id, message.id, cancellation);
    try {
      const ctx = this.contextFor(state, message, exchange, controller);
      const outcome = await this.server.router.handle(message.method, message.params, ctx);
      if (controller.aborted) return undefined;
      return 'result' in outcome ? success(message.id, outcome.result) : failure(message.id, outcome.error);
    } finally {
      this.inFlight.finish(state.id, message.id);
    }
  }

  /** Handles a client notification: initialised, cancelled, roots changed. Never answered. */
  async notification(state: SessionState, message: JsonRpcNotification): Promise<void> {
    if (message.method === Notification.Initialized && !state.initialized) {
      await this.sessions.update(state.id, (current) => current.initialized ? undefined : { ...current, initialized: true });
    } else if (message.method === Notification.Cancelled) {
      this.inFlight.cancel(state.id, message.params?.requestId, message.params?.reason);
    }
    this.touch(state.id);
  }

  /** Routes a client's response to the request of this session waiting for it; one that matches none is ignored. */
  response(state: SessionState, message: JsonRpcResponse): boolean {
    this.touch(state.id);
    if (this.pending.settle(state.id, message)) return true;
    this.clientWarnings.warn('unmatched response', `session ${state.id.slice(0, 8)}…: a response to no pending request was ignored`);
    return false;
  }

  /** Where messages that belong to no request go for this session (the GET stream, the pipe). */
  attachStandalone(sessionId: string, sink: StandaloneSink): () => void {
    this.standalone.set(sessionId, sink);
    return () => {
      if (this.standalone.get(sessionId) === sink) this.standalone.delete(sessionId);
    };
  }


  /**
   * Keeps a session alive while a connection of it is open (a stdio pipe, a GET stream: either
   * may sit idle for hours): touches it well within the idle timeout until the returned function
   * is called.
   */
  keepAlive(sessionId: string): () => void {
    const timer = setInterval(() => {
      this.sessions.touch(sessionId).catch((error) => this.server.diagnostics.error('session keep-alive failed', error));
    }, Math.max(50, Math.floor(this.idleMs / 3)));
    timer.unref();
    return () => clearInterval(timer);
  }

  /** Ends a session: its requests are aborted, its waiters fail, and it is forgotten. */
  async endSession(id: string): Promise<boolean> {
    this.forget(id);
    return this.sessions.delete(id);
  }

  /**
   * Tells every session subscribed to `uri`, and every listen stream asking for it, that it
   * changed; only those whose principal may know the resource (visibility can change after a
   * subscription was made).
   */
  async resourceUpdated(uri: string): Promise<void> {
    const message = notification(Notification.ResourceUpdated, { uri });
    const mayKnow = (principal: unknown) => this.server.router.canRead(uri, principal);
    this.listeners.resourceUpdated(uri, mayKnow);
    for (const id of await this.sessions.subscribers(uri)) {
      const sink = this.standalone.get(id);
      if (!sink) continue;
      const state = await this.sessions.load(id);
      if (state && mayKnow(state.principal)) sink(message);
    }
  }

  /** Announces the end of a URL elicitation to the client that was sent it. */
  notifyElicitationComplete(elicitationId: string): boolean {
    const target = this.urlElicitations.get(elicitationId);
    if (!target) return false;
    this.urlElicitations.delete(elicitationId);
    const message = notification(Notification.ElicitationComplete, { elicitationId });
    const sink = this.standalone.get(target.sessionId);
    if (target.exchange.open) target.exchange.send(message);
    else if (sink) sink(message);
    else return false;
    return true;
  }

  /** Called when a session ends (deleted, closed or expired), so transports can free its streams. */
  onSessionEnded(listener: (sessionId: string) => void): () => void {
    this.endedListeners.add(listener);
    return () => this.endedListeners.delete(listener);
  }

  trackUrlElicitation(elicitationId: string, sessionId: string, exchange: Exchange): void {
    // URL flows the user never finishes must not pile up: the oldest are forgotten first.
    if (this.urlElicitations.size >= MAX_TRACKED_URL_ELICITATIONS) {
      this.urlElicitations.delete(this.urlElicitations.keys().next().value as string);
    }
    this.urlElicitations.set(elicitationId, { sessionId, exchange });
  }

  async close(): Promise<void> {
    this.unsubscribe();
    this.stopExpiry();
    this.listeners.closeAll();
    await this.sessions.close();
  }

  /** Any message of a session restarts its idle clock. */
  private touch(sessionId: string): void {
    this.sessions.touch(sessionId).catch((error) => this.server.diagnostics.error('session touch failed', error));
  }

  /** A lifecycle method, through the operation pipeline; never refused by the in-flight cap. */
  private async runLifecycle(state: SessionState, message: JsonRpcRequest, lifecycle: LifecycleMethod, exchange: Exchange): Promise<JsonRpcResponse> {
    const outcome = await this.server.router.operate(lifecycle.operation, message.params ?? {}, this.contextFor(state, message, exchange), async (params) => {
      const { result, change } = await lifecycle.handle(params, state, this.lifecycle);
      // A session that ended meanwhile stays ended: an update never brings it back.
      if (change) await this.sessions.update(state.id, change);
      return result;
    });
    return 'result' in outcome ? success(message.id, outcome.result) : failure(message.id, outcome.error);
  }

  private contextFor(state: SessionState, message: JsonRpcRequest, exchange: Exchange, signal?: Cancellation): Context {
    const meta = message.params?._meta as JsonObject | undefined;
    const progressToken = meta?.progressToken;
    return new Context({
      requestId: message.id,
      sessionId: state.id,
      signal,
      progressToken: typeof progressToken === 'string' || typeof progressToken === 'number' ? progressToken : undefined,
      clientInfo: state.clientInfo,
      clientCapabilities: state.clientCapabilities,
      principal: state.principal,
      channel: new SessionChannel(this, state, exchange),
      requestTimeoutMs: this.requestTimeoutMs,
    });
  }

  private broadcast(message: JsonRpcNotification): void {
    for (const sink of this.standalone.values()) sink(message);
  }

  private forget(id: string): void {
    this.inFlight.cancelSession(id);
    this.pending.abandon(id);
    this.standalone.delete(id);
    for (const [elicitationId, target] of this.urlElicitations) if (target.sessionId === id) this.urlElicitations.delete(elicitationId);
    for (const listener of this.endedListeners) listener(id);
  }
}

/** 128 bits from the system's CSPRNG, as visible ASCII (hex). */
export function newSessionId(): string {
  return randomBytes(16).toString('hex');
}

function initializeProblem(params: JsonObject): string | undefined {
  if (typeof params.protocolVersion !== 'string') return '"protocolVersion" must be a string';
  if (params.capabilities !== undefined && (typeof params.capabilities !== 'object' || params.capabilities === null)) return '"capabilities" must be an object';
  const info = params.clientInfo as JsonObject | undefined;
  if (!info || typeof info !== 'object' || typeof info.name !== 'string' || typeof info.version !== 'string') {
    return '"clientInfo" must be an object with a name and a version';
  }
  return undefined;
}
