import { randomBytes } from 'node:crypto';
import { WarningThrottle, type Diagnostics, type WarningRateLimit } from '../../core/diagnostics';
import { ErrorCode } from '../../core/error-codes';
import { failure, notification, success, type JsonRpcNotification, type JsonRpcRequest, type JsonRpcResponse, type RequestId } from '../../core/jsonrpc';
import { Notification } from '../../core/methods';
import type { ClientCapabilities, Implementation, JsonObject } from '../../core/wire.types';
import type { Router } from '../../router/router';
import type { ToolVisibility } from '../../router/extensions/tool-visibility';
import type { Negotiation } from '../../router/extensions/extension';
import { sessionCapabilities, type FeatureCounts } from '../capabilities';
import type { ServerEvents } from '../events/server-events';
import type { BusSubscription, ServerMessage, SessionBus, SessionMessage } from '../seams/session-bus';
import type { Exchange, StandaloneStream, StandaloneSink, InFlight } from '../in-flight';
import type { RefusalKind } from '../refusal';
import type { RunningRequests } from '../running-requests';
import type { ServerIdentity } from '../server-identity';
import type { SessionState } from '../seams/session-state';
import type { TaskRecord } from '../seams/task-store';
import { DEFAULT_SESSION_IDLE_MS, TOUCHED, type SessionStore } from '../seams/session-store';
import { negotiateVersion } from '../versions';
import { lifecycleMethods } from './lifecycle.handlers';
import { DEFAULT_MAX_PENDING_BYTES_PER_SESSION, PendingRequests } from './pending-requests';
import type { ChannelHost } from './session-channel';
import { StandaloneHolds } from './standalone-holds';
import { UrlElicitations } from './url-elicitations';
import { SessionTasks } from '../tasks/session-tasks';
import type { TaskService } from '../tasks/task-service';
import { runMethod, type EraCodec } from '../request-runner';
import { isRefusal, isRouted, MethodTable, type Served } from '../method-table';
import type { ProtocolMethods } from '../era-methods';
import { sessionCodec, type SessionAnswer, type SessionRequest } from './session-codec';

/** What the session era asks of the router: its methods, the operation pipeline, the resource rules. */
export type SessionRouter = Pick<Router, 'handles' | 'route' | 'operate' | 'resourceUri' | 'canRead' | 'readRefusal'>;

/** What the session era is built from, handed in by the composition root. */
export interface SessionEngineDeps {
  readonly router: SessionRouter;
  readonly identity: ServerIdentity;
  /** What is registered now: capabilities are computed from it at each `initialize`. */
  readonly counts: () => FeatureCounts;
  readonly diagnostics: Diagnostics;
  readonly events: ServerEvents;
  readonly store: SessionStore;
  readonly bus: SessionBus;
  /** The one table of cancellable requests; a session's requests are scoped by its id. */
  readonly running: RunningRequests;
  /** The time now, in ms since the epoch (a fake in specs). */
  readonly clock?: () => number;
  /** A new session id (default: 128 bits from the CSPRNG). */
  readonly newSessionId?: () => string;
  /** Tasks, shared with the stateless era. */
  readonly tasks: TaskService;
  /** Whether the tool `name` may run as a task; `undefined` for no such tool (cheap: every `tools/call` asks). */
  readonly toolTaskSupport: (name: string) => 'forbidden' | 'optional' | 'required' | undefined;
  /** The tools `principal` may know (the server's visibility resolver): a hidden tool is unknown, never a task. */
  readonly visibility: ToolVisibility;
  /** What the server's extensions advertise to a client (`capabilities.extensions`), if anything. */
  readonly advertised?: (negotiation: Negotiation) => JsonObject | undefined;
  /** The server's one method table, shared with the stateless era: the engine registers the session era's own methods in it (default: a table of its own over the router's methods). */
  readonly methods?: ProtocolMethods;
}

export interface SessionEngineOptions {
  /** Sessions idle this long expire (default 30 minutes); an open pipe or GET stream touches its session a third as often. */
  readonly sessionIdleMs?: number;
  /** Sessions open at once (default 10,000); `initialize` beyond is refused with -32005. */
  readonly maxSessions?: number;
  /** How long server-to-client requests wait for an answer (default 5 minutes). */
  readonly requestTimeoutMs?: number;
  /** Requests one session may have running at once (default 100); more are refused with -32010. */
  readonly maxInFlightPerSession?: number;
  /** Resources one session may be subscribed to at once (default 1,000); more are refused with -32602. */
  readonly maxSubscriptionsPerSession?: number;
  /** Bytes one session's unanswered server-to-client requests may hold (default 8 MiB). */
  readonly maxPendingBytesPerSession?: number;
  /** Warnings a client can cause: at most this many lines of one kind per window (default 10 a minute). */
  readonly warningRateLimit?: WarningRateLimit;
}

/** What `initialize` came to: the new session, or the refusal. */
export interface Initialized {
  readonly state?: SessionState;
  readonly response: JsonRpcResponse;
  readonly refusal?: RefusalKind;
}

/** What waiting for a live subscription comes to. */
const LIVE: Promise<void> = Promise.resolve();

/** A session this node listens to on the bus: its subscription, and whether it is live yet. */
interface HeldSession {
  readonly subscription: BusSubscription;
  live: boolean;
}

type OnSessionMessage = { readonly [K in SessionMessage['kind']]: (engine: SessionEngine, sessionId: string, message: Extract<SessionMessage, { kind: K }>) => void };

/** What a message of a session heard on the bus does on this node. */
const ON_SESSION_MESSAGE: OnSessionMessage = Object.freeze({
  response: (engine, id, { response }) => void engine.pending.settle(id, response),
  cancel: (engine, id, { requestId, reason }) => void engine.running.cancel(id, requestId, reason),
  notify: (engine, id, { notification: message }) => void engine.events.deliver(id, message),
  'standalone-moved': (engine, id, message) => engine.standalone.heard(id, message),
  ended: (engine, id) => engine.forget(id),
});

/**
 * The session era (protocol 2025-03-26 to 2025-11-25): `initialize`, the lifecycle methods
 * through the operation pipeline, the requests of a session with their cancellation, the
 * server-to-client requests waiting for the client, and URL-elicitation tracking. A node holds a
 * session on the bus while it serves it, so what another node receives for it (the client's
 * answer, a cancellation, a notification for its stream, its end) reaches it here.
 */
export class SessionEngine implements ChannelHost {
  readonly pending: PendingRequests;
  readonly running: RunningRequests;
  readonly events: ServerEvents;
  /** Which node holds each session's standalone stream (HTTP: the GET stream, wherever its client reconnects). */
  readonly standalone: StandaloneHolds;
  /** Requests one session may have running at once. */
  readonly maxInFlightPerSession: number;
  private readonly urlElicitations = new UrlElicitations();
  /** 2025-11-25 tasks: `tools/call` with `params.task`, and the `tasks/*` methods. */
  private readonly tasks: SessionTasks;
  /** The sessions this node holds on the bus, and how to let each go. */
  private readonly held = new Map<string, HeldSession>();
  private readonly endedListeners = new Set<(sessionId: string) => void>();
  private readonly store: SessionStore;
  private readonly bus: SessionBus;
  private readonly router: SessionRouter;
  private readonly diagnostics: Diagnostics;
  private readonly clock: () => number;
  private readonly newSessionId: () => string;
  private readonly clientWarnings: WarningThrottle;
  /** Every method this era serves: the router's, the lifecycle methods, the 2025-11-25 task methods. */
  private readonly methods: ProtocolMethods;
  private readonly idleMs: number;
  private readonly maxSessions: number;
  private readonly stops: (() => void)[];
  /** What the session era's answers and contexts are made of. */
  private readonly codec: EraCodec<SessionRequest, SessionAnswer, TaskRecord>;

  constructor(private readonly deps: SessionEngineDeps, options: SessionEngineOptions = {}) {
    ({ store: this.store, bus: this.bus, router: this.router, diagnostics: this.diagnostics, running: this.running, events: this.events } = deps);
    this.clock = deps.clock ?? Date.now;
    this.newSessionId = deps.newSessionId ?? newSessionId;
    this.clientWarnings = new WarningThrottle(deps.diagnostics, options.warningRateLimit);
    this.codec = sessionCodec(this, options.requestTimeoutMs);
    this.maxInFlightPerSession = options.maxInFlightPerSession ?? 100;
    this.pending = new PendingRequests(options.maxPendingBytesPerSession ?? DEFAULT_MAX_PENDING_BYTES_PER_SESSION);
    this.idleMs = options.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS;
    this.maxSessions = options.maxSessions ?? 10_000;
    this.standalone = new StandaloneHolds({ bus: this.bus, events: this.events, listen: (id) => this.hold(id) ?? LIVE, diagnostics: this.diagnostics });
    this.tasks = new SessionTasks({
      service: deps.tasks,
      pending: this.pending,
      events: this.events,
      bus: this.bus,
      resourceUpdated: (uri) => this.resourceUpdated(uri),
      toolTaskSupport: deps.toolTaskSupport,
      visibility: deps.visibility,
      hasTaskTools: () => deps.counts().taskTools > 0,
      diagnostics: this.diagnostics,
    });
    this.methods = (deps.methods ?? new MethodTable((method) => deps.router.handles(method))).register([
      ...lifecycleMethods({ resources: deps.router, maxSubscriptions: options.maxSubscriptionsPerSession ?? 1000, store: this.store }),
      ...this.tasks.methods(),
    ]);
    this.stops = [
      // Whatever the store, a session that expires takes its requests, waiters and streams with it, on every node.
      this.store.onExpired((id) => this.ended(id)),
      this.bus.onBroadcast((message) => this.heard(message)),
    ];
  }

  /** Answers `initialize`: negotiates the version and creates the session. */
  async initialize(message: JsonRpcRequest, principal?: unknown): Promise<Initialized> {
    const params = message.params ?? {};
    const problem = initializeProblem(params);
    if (problem) return { response: failure(message.id, { code: ErrorCode.InvalidParams, message: problem }), refusal: 'invalid-params' };
    if (await this.store.count() >= this.maxSessions) {
      const error = { code: ErrorCode.TooManySessions, message: `Too many sessions: this server holds at most ${this.maxSessions}; retry once one has ended` };
      return { response: failure(message.id, error), refusal: 'too-many-sessions' };
    }
    const now = this.clock();
    const state: SessionState = {
      id: this.newSessionId(),
      protocolVersion: negotiateVersion(params.protocolVersion),
      clientInfo: params.clientInfo as Implementation,
      clientCapabilities: (params.capabilities ?? {}) as ClientCapabilities,
      initialized: false,
      subscriptions: [],
      principal,
      createdAt: now,
      lastActiveAt: now,
    };
    await this.store.save(state);
    const result: JsonObject = {
      protocolVersion: state.protocolVersion,
      capabilities: sessionCapabilities(this.deps.counts(), state.protocolVersion, this.deps.advertised?.({
        era: 'session', protocolVersion: state.protocolVersion, clientCapabilities: state.clientCapabilities,
      })),
      serverInfo: this.deps.identity.info,
    };
    if (this.deps.identity.instructions !== undefined) result.instructions = this.deps.identity.instructions;
    return { state, response: success(message.id, result) };
  }

  /**
   * Answers one request of an initialised session; `undefined` when it was cancelled (no answer is
   * sent). The way's cancellation is the transport's (closing): it is the handler's `ctx.signal`,
   * and `notifications/cancelled` cancels it too. `principal` is who sent this request (the
   * session's owner, by identity): its current token's scopes and claims are what the call sees.
   * Answered at once when nothing on the way had to wait (the session's subscription live, a
   * synchronous handler): a client that waits for each answer (stdio) pays every promise and every
   * turn in its round trip.
   */
  request(state: SessionState, message: JsonRpcRequest, way: InFlight, principal: unknown = state.principal): SessionAnswer | Promise<SessionAnswer> {
    let answer: SessionAnswer | Promise<SessionAnswer>;
    try {
      answer = this.served(state, message, way, principal);
    } catch (error) {
      this.touch(state.id);
      throw error;
    }
    // A promise touches the session itself once it settles (one async step for both ends, see `served`).
    if (answer instanceof Promise) return answer;
    // The idle clock starts when the last request ends, not when it began (a running request
    // keeps its session from expiring), and every request counts: a ping too.
    this.touch(state.id);
    return answer;
  }

  /** What `request` answers; a promise it gives touches the session once settled. */
  private served(state: SessionState, message: JsonRpcRequest, way: InFlight, principal: unknown): SessionAnswer | Promise<SessionAnswer> {
    const pending = this.hold(state.id);
    const request: SessionRequest = { state, message, exchange: way.exchange, principal, cancellation: way.cancellation };
    const served = this.methods.lookup('session', message.method, request);
    if (isRefusal(served)) return this.codec.refused(request, served);
    if (!isRouted(served) && served.immediate) {
      const answer = runMethod(this.codec, this.router, served, request);
      return answer instanceof Promise ? this.endedAfter(answer, state.id) : answer;
    }
    // A request that never returns holds its handler, its params and what it waits for: a client
    // may not pile them up without bound (answered, not thrown: stdio has no HTTP status).
    const refused = this.running.refusal(state.id, message.id, this.maxInFlightPerSession);
    if (refused) return failure(message.id, refused);
    this.running.start(state.id, message.id, way.cancellation);
    let answer: SessionAnswer | Promise<SessionAnswer>;
    try {
      // Running (so cancellable) at once, but the handler waits for the session's subscription
      // when it is not live yet (see `hold`): the client's answer to a request the handler sends
      // it, or the request's cancellation, may reach another node and come here over the bus,
      // and must not overtake the subscription.
      answer = pending ? this.runWhenHeld(pending, served, request) : this.run(served, request);
    } catch (error) {
      this.running.finish(state.id, message.id);
      throw error;
    }
    if (answer instanceof Promise) return this.endedAfter(answer, state.id, message.id);
    this.running.finish(state.id, message.id);
    return answer;
  }

  /** Runs a request admitted as running: nothing when it was cancelled before it started, its task's refusal, or what it comes to. */
  private run(served: Served<SessionRequest>, request: SessionRequest): SessionAnswer | Promise<SessionAnswer> {
    const { state, message, principal } = request;
    if (request.cancellation.aborted) return undefined;
    const task = isRouted(served) ? this.tasks.taskOf(state, message, principal) : undefined;
    if (task && 'code' in task) return failure(message.id, task);
    return runMethod(this.codec, this.router, served, request, task);
  }

  private async runWhenHeld(held: Promise<void>, served: Served<SessionRequest>, request: SessionRequest): Promise<SessionAnswer> {
    await held;
    return this.run(served, request);
  }

  /**
   * A request that had to wait, once it is answered: no longer running (when it was counted as
   * such, `id`), and its session touched.
   */
  private async endedAfter(pending: Promise<SessionAnswer>, sessionId: string, id?: RequestId): Promise<SessionAnswer> {
    try {
      return await pending;
    } finally {
      if (id !== undefined) this.running.finish(sessionId, id);
      this.touch(sessionId);
    }
  }

  /** Handles a client notification: initialised, cancelled, roots changed. Never answered. */
  async notification(state: SessionState, message: JsonRpcNotification): Promise<void> {
    if (message.method === Notification.Initialized && !state.initialized) {
      await this.store.update(state.id, (current) => current.initialized ? undefined : { ...current, initialized: true });
    } else if (message.method === Notification.Cancelled) {
      const { requestId, reason } = message.params ?? {};
      // Not running here: it may run on another node of the session.
      if (!this.running.cancel(state.id, requestId, reason) && (typeof requestId === 'string' || typeof requestId === 'number')) {
        this.publish(state.id, { kind: 'cancel', requestId, reason: typeof reason === 'string' ? reason : undefined });
      }
    }
    this.touch(state.id);
  }

  /**
   * Routes a client's response to the request of this session waiting for it: here, or (when none
   * waits here) on the node that sent it, over the bus. Request ids name the process that made
   * them: another node's goes to it without a word; one made here that matches nothing, or one
   * no node made, is ignored and warned about (within the client-warning limit), and costs the
   * bus nothing.
   */
  response(state: SessionState, message: JsonRpcResponse): void {
    this.touch(state.id);
    if (this.pending.settle(state.id, message)) return;
    // Only another replica's request can be waiting elsewhere: nothing else crosses the bus.
    if (this.pending.madeBy(message.id) === 'elsewhere') return void this.publish(state.id, { kind: 'response', response: message });
    this.clientWarnings.warn('unmatched response', `session ${state.id.slice(0, 8)}…: a response to no pending request was ignored`);
  }

  /** Where messages that belong to no request go for this session, on this node (a pipe: its session lives nowhere else). */
  attachStandalone(sessionId: string, sink: StandaloneSink): () => void {
    void this.hold(sessionId);
    return this.events.attach(sessionId, sink);
  }

  /**
   * Makes this node the one that carries the session's standalone stream, `stream` (HTTP: a GET
   * stream, opened or resumed here), the node that carried it before letting it go; resolves once
   * a message sent from then on, from any node, reaches `stream` (see `StandaloneHolds#hold`).
   */
  holdStandalone(sessionId: string, stream: StandaloneStream): Promise<void> {
    return this.standalone.hold(sessionId, stream);
  }

  /**
   * Keeps a session alive while a connection of it is open (a stdio pipe, a GET stream: either
   * may sit idle for hours): touches it well within the idle timeout until the returned function
   * is called.
   */
  keepAlive(sessionId: string): () => void {
    const timer = setInterval(() => this.touch(sessionId, 'session keep-alive failed'), Math.max(50, Math.floor(this.idleMs / 3)));
    timer.unref();
    return () => clearInterval(timer);
  }

  /** Ends a session on every node: its requests are aborted, its waiters fail, and it is forgotten. */
  async endSession(id: string): Promise<boolean> {
    this.forget(id);
    const deleted = await this.store.delete(id);
    this.publish(id, { kind: 'ended' });
    return deleted;
  }

  /**
   * Announces the end of a URL elicitation to the client that was sent it, from any node: the
   * node that sent it hears it on the bus and tells the client (on the request's stream while it
   * is open, else on the session's standalone stream, wherever that is held). An id no node
   * tracks is ignored.
   */
  notifyElicitationComplete(elicitationId: string): Promise<void> {
    return this.bus.broadcast({ kind: 'elicitation-complete', elicitationId });
  }

  /** Called when a session ends (deleted, closed or expired), so transports can free its streams. */
  onSessionEnded(listener: (sessionId: string) => void): () => void {
    this.endedListeners.add(listener);
    return () => this.endedListeners.delete(listener);
  }

  trackUrlElicitation(elicitationId: string, sessionId: string, exchange: Exchange): void {
    this.urlElicitations.track(elicitationId, { sessionId, exchange });
  }

  resourceUpdated(uri: string): Promise<void> {
    return this.events.resourceUpdated(uri);
  }

  async close(): Promise<void> {
    this.tasks.close();
    for (const stop of this.stops) stop();
    for (const { subscription } of this.held.values()) subscription();
    this.held.clear();
  }

  /**
   * @internal Forgets what this node holds of a session that ended: its requests are cancelled,
   * its waiters fail, its standalone stream and URL elicitations are dropped, its transports told.
   */
  forget(id: string): void {
    this.held.get(id)?.subscription();
    this.held.delete(id);
    // Waiters first, so that they learn why (the session ended), rather than a bare cancellation.
    this.pending.abandon(id);
    this.running.cancelScope(id);
    this.events.detach(id);
    this.standalone.forget(id);
    this.urlElicitations.forgetSession(id);
    for (const listener of this.endedListeners) listener(id);
  }

  /** A session expired: forgotten here, and on the nodes that hold a part of it. */
  private ended(id: string): void {
    this.forget(id);
    this.publish(id, { kind: 'ended' });
  }

  /**
   * Subscribes this node to the session's messages, once: no bus traffic per request after the
   * first. What to wait for until the subscription is live; `undefined` once it is (no promise,
   * no turn per request). One that could not be made (the bus's backend is down) is let go, so
   * that the session's next request subscribes afresh.
   */
  private hold(sessionId: string): Promise<void> | undefined {
    const held = this.held.get(sessionId);
    if (held) return held.live ? undefined : held.subscription.ready;
    const subscription = this.bus.subscribe(sessionId, (message) => {
      (ON_SESSION_MESSAGE[message.kind] as (engine: SessionEngine, id: string, message: SessionMessage) => void)(this, sessionId, message);
    });
    const entry: HeldSession = { subscription, live: false };
    this.held.set(sessionId, entry);
    subscription.ready.then(() => {
      entry.live = true;
    }, () => {
      if (this.held.get(sessionId) !== entry) return;
      this.held.delete(sessionId);
      subscription();
    });
    return subscription.ready;
  }

  private heard(message: ServerMessage): void {
    if (message.kind !== 'elicitation-complete') return;
    const target = this.urlElicitations.take(message.elicitationId);
    if (!target) return;
    const complete = notification(Notification.ElicitationComplete, { elicitationId: message.elicitationId });
    if (target.exchange.open) target.exchange.send(complete);
    else if (!this.events.deliver(target.sessionId, complete)) this.publish(target.sessionId, { kind: 'notify', notification: complete });
  }

  private publish(sessionId: string, message: SessionMessage): void {
    this.bus.publish(sessionId, message).catch((error) => this.diagnostics.error('bus publish failed', error));
  }

  /** Any message of a session restarts its idle clock (a store at hand does it at once, with no promise). */
  private touch(sessionId: string, failed = 'session touch failed'): void {
    try {
      const touched = this.store.touch(sessionId);
      if (touched !== TOUCHED) touched.catch((error) => this.diagnostics.error(failed, error));
    } catch (error) {
      this.diagnostics.error(failed, error);
    }
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
