import type { Diagnostics } from '../core/diagnostics';
import { toErrorObject, type ErrorObject } from '../core/error-mapper';
import { StoreUnavailableError } from '../core/errors';
import { classify, failure, success, type Classified, type JsonRpcNotification, type JsonRpcRequest, type JsonRpcResponse, type RequestId } from '../core/jsonrpc';
import { Method, Notification } from '../core/methods';
import type { HeapGuard } from './heap-guard';
import { ACCEPTED, answer, closing, NOTHING, refused, servedAnswer, type DispatchOutcome } from './dispatch-outcome';
import { detectEra } from './era';
import type { Arrival } from './arrival';
import { NO_EXCHANGE, type StandaloneStream, type StandaloneSink } from './in-flight';
import type { PipeBinding } from './pipe-binding';
import { SessionRefusal, type RefusalKind } from './refusal';
import type { RunningRequests } from './running-requests';
import { samePrincipal } from './principal';
import { admitBatch, batchRefusal, classifyBatch, EMPTY_BATCH } from './session-era/batch';
import type { SessionEngine } from './session-era/session-engine';
import type { SessionState } from './seams/session-state';
import type { SessionStore } from './seams/session-store';
import { StatelessMethod, type StatelessEra } from './stateless-era/stateless-era';
import { allowsBatches, isSessionEraVersion } from './versions';

/** Why a named session cannot be used, with the error that says so. */
export interface SessionRefused {
  readonly refusal: RefusalKind;
  readonly error: ErrorObject;
}

const SESSION_REQUIRED: SessionRefused = Object.freeze({ refusal: 'session-required', error: SessionRefusal.required });
const SESSION_NOT_FOUND: SessionRefused = Object.freeze({ refusal: 'session-not-found', error: SessionRefusal.notFound });
const OTHER_PRINCIPAL: SessionRefused = Object.freeze({ refusal: 'other-principal', error: SessionRefusal.otherPrincipal });

/** Refused before the store is asked: no session id, or a version header the session era does not speak. */
function namingRefusal(sessionId: string | undefined, versionHeader: string | undefined): SessionRefused | undefined {
  if (!sessionId) return SESSION_REQUIRED;
  if (versionHeader !== undefined && !isSessionEraVersion(versionHeader)) {
    return { refusal: 'unsupported-version', error: SessionRefusal.unsupportedVersion(versionHeader) };
  }
  return undefined;
}

/**
 * The loaded session, if `principal` may use it. No touch here: the engine restarts the idle
 * clock when each request ends, and keeps a session with a request running from expiring; one
 * touch per request is enough.
 */
function foundFor(state: SessionState | undefined, principal: unknown): SessionState | SessionRefused {
  if (!state) return SESSION_NOT_FOUND;
  return samePrincipal(state.principal, principal) ? state : OTHER_PRINCIPAL;
}

/** A client's response in the stateless era: nothing to answer on a pipe, a 400 where every message is answered. */
const STATELESS_RESPONSE: DispatchOutcome = Object.freeze({
  kind: 'accepted', refusal: 'invalid-request', response: Object.freeze(failure(null, SessionRefusal.statelessResponse)),
});

/** What the dispatcher is built from, handed in by the composition root. */
export interface DispatcherDeps {
  readonly engine: SessionEngine;
  readonly stateless: StatelessEra;
  readonly store: SessionStore;
  readonly running: RunningRequests;
  readonly diagnostics: Diagnostics;
  /** How deeply a message may nest (`maxJsonDepth`). */
  readonly maxJsonDepth: number;
  /** Refuses new requests while the heap is nearly full (`maxHeapUsedRatio`). */
  readonly heap: HeapGuard;
}

/**
 * The single entry for every incoming message, from every transport: it classifies the message,
 * detects its era (`detectEra`), finds its session, admits it (asking the transport for the way
 * back only then) and returns what became of it in the protocol's terms. The session era is the
 * engine's, the stateless era the stateless engine's; the transport only frames the outcome.
 */
export class Dispatcher {
  readonly diagnostics: Diagnostics;
  private readonly engine: SessionEngine;
  private readonly stateless: StatelessEra;
  private readonly store: SessionStore;
  private readonly running: RunningRequests;
  private readonly maxJsonDepth: number;
  private readonly heap: HeapGuard;

  constructor(deps: DispatcherDeps) {
    ({ engine: this.engine, stateless: this.stateless, store: this.store, running: this.running, diagnostics: this.diagnostics, maxJsonDepth: this.maxJsonDepth, heap: this.heap } = deps);
  }

  /**
   * One parsed JSON value (a message, or a batch) and what its transport knows about it: what
   * became of it, at once when nothing on its way had to wait (a refusal, a session at hand, a
   * synchronous handler), else as a promise. A transport that awaits only a promise pays no turn
   * for a call that never waited.
   */
  dispatch(value: unknown, arrival: Arrival): DispatchOutcome | Promise<DispatchOutcome> {
    if (Array.isArray(value)) return this.batch(value, arrival);
    const incoming = classify(value, this.maxJsonDepth);
    if (incoming.kind === 'invalid') return refused('invalid-request', incoming.id, incoming.error);
    // New work only: a response or a notification (a cancellation) may be what frees memory.
    if (incoming.kind === 'request') {
      const overloaded = this.heap.refusal();
      if (overloaded) return refused('overloaded', incoming.message.id, overloaded);
    }
    const { binding } = arrival;
    const era = detectEra({
      message: incoming,
      connection: binding ? 'pipe' : 'http',
      sessionNamed: (binding ? binding.sessionId : arrival.sessionId) !== undefined,
      versionHeader: arrival.versionHeader,
      pinned: binding?.era,
    });
    if (era === 'stateless') return this.statelessMessage(incoming, arrival);
    return binding ? this.pipeMessage(incoming, arrival, binding) : this.namedSessionMessage(incoming, arrival);
  }

  /**
   * The session `sessionId` names, if the caller may use it: refused without an id, with a version
   * header the session era does not speak, for an unknown session, or another principal's. At
   * once when the store has it at hand.
   */
  findSession(sessionId: string | undefined, versionHeader: string | undefined, principal: unknown): SessionState | SessionRefused | Promise<SessionState | SessionRefused> {
    const naming = namingRefusal(sessionId, versionHeader);
    if (naming) return naming;
    const loaded = this.loadSession(sessionId!);
    return loaded instanceof Promise ? loaded.then((state) => foundFor(state, principal)) : foundFor(loaded, principal);
  }

  /** The session's state: at once from a store that has it at hand, else as the store's promise. */
  private loadSession(id: string): SessionState | undefined | Promise<SessionState | undefined> {
    return this.store.loadAtHand ? this.store.loadAtHand(id) : this.store.load(id);
  }

  attachStandalone(sessionId: string, sink: StandaloneSink): () => void {
    return this.engine.attachStandalone(sessionId, sink);
  }

  /** The session's standalone stream (HTTP's GET stream) is carried by this node from now on; see `SessionEngine#holdStandalone`. */
  holdStandalone(sessionId: string, stream: StandaloneStream): Promise<void> {
    return this.engine.holdStandalone(sessionId, stream);
  }

  keepAlive(sessionId: string): () => void {
    return this.engine.keepAlive(sessionId);
  }

  endSession(sessionId: string): Promise<boolean> {
    return this.engine.endSession(sessionId);
  }

  onSessionEnded(listener: (sessionId: string) => void): () => void {
    return this.engine.onSessionEnded(listener);
  }

  /** A pipe closed: its stateless-era requests are cancelled and its session ends. */
  async unbind(binding: PipeBinding, reason: unknown = 'the pipe closed'): Promise<void> {
    this.running.cancelScope(binding.scope, reason);
    if (binding.sessionId !== undefined) await this.engine.endSession(binding.sessionId);
  }

  /** HTTP: the message names its session (or must). */
  private namedSessionMessage(incoming: Classified, arrival: Arrival): DispatchOutcome | Promise<DispatchOutcome> {
    const id = incoming.kind === 'request' ? incoming.message.id : null;
    if (incoming.kind === 'request' && incoming.message.method === Method.Initialize) {
      if (arrival.sessionId !== undefined) return refused('invalid-request', id, SessionRefusal.initializeNamesSession);
      return this.initialize(incoming.message, arrival);
    }
    const found = this.findSession(arrival.sessionId, arrival.versionHeader, arrival.principal);
    if (found instanceof Promise) return found.then((loaded) => this.inFoundSession(incoming, loaded, arrival, id));
    return this.inFoundSession(incoming, found, arrival, id);
  }

  private inFoundSession(incoming: Classified, found: SessionState | SessionRefused, arrival: Arrival, id: RequestId | null): DispatchOutcome | Promise<DispatchOutcome> {
    if ('refusal' in found) return refused(found.refusal, id, found.error);
    return this.inSession(incoming, found, arrival);
  }

  /** A pipe: one implicit session, made by `initialize`; before it, only `ping` is answered. */
  private pipeMessage(incoming: Classified, arrival: Arrival, binding: PipeBinding): DispatchOutcome | Promise<DispatchOutcome> {
    const request = incoming.kind === 'request' ? incoming.message : undefined;
    if (request?.method === Method.Initialize && binding.sessionId === undefined) return this.initialize(request, arrival);
    if (binding.sessionId === undefined) return this.inPipeSession(incoming, undefined, arrival, request);
    let loaded: SessionState | undefined | Promise<SessionState | undefined>;
    try {
      loaded = this.loadSession(binding.sessionId);
    } catch (error) {
      return this.loadFailed(error, request);
    }
    if (loaded instanceof Promise) {
      return loaded.then((state) => this.inPipeSession(incoming, state, arrival, request), (error) => this.loadFailed(error, request));
    }
    return this.inPipeSession(incoming, loaded, arrival, request);
  }

  private inPipeSession(incoming: Classified, state: SessionState | undefined, arrival: Arrival, request: JsonRpcRequest | undefined): DispatchOutcome | Promise<DispatchOutcome> {
    if (state) return this.inSession(incoming, state, arrival);
    if (!request) return ACCEPTED;
    if (!arrival.accepting) return closing(request.id);
    if (request.method === Method.Ping) return answer(success(request.id, {}));
    return refused('session-required', request.id, SessionRefusal.notInitialised);
  }

  /** The pipe's session could not be loaded: a request is answered so, anything else fails as it did. */
  private loadFailed(error: unknown, request: JsonRpcRequest | undefined): DispatchOutcome {
    if (!request) throw error;
    return this.failed(error, request);
  }

  private async initialize(message: JsonRpcRequest, arrival: Arrival): Promise<DispatchOutcome> {
    if (!arrival.accepting) return closing(message.id);
    try {
      const { state, response, refusal } = await this.engine.initialize(message, arrival.principal);
      if (!state) return { kind: 'answer', response, refusal };
      if (arrival.binding) {
        arrival.binding.era = 'session';
        arrival.binding.sessionId = state.id;
      }
      return { kind: 'answer', response, sessionId: state.id };
    } catch (error) {
      return this.failed(error, message);
    }
  }

  private inSession(incoming: Classified, state: SessionState, arrival: Arrival): DispatchOutcome | Promise<DispatchOutcome> {
    if (incoming.kind === 'notification') return this.notified(state, incoming.message);
    if (incoming.kind === 'response') {
      this.engine.response(state, incoming.message);
      return ACCEPTED;
    }
    const message = (incoming as Extract<Classified, { kind: 'request' }>).message;
    const inFlight = arrival.open('request', state.id, message.id);
    if (!inFlight) return closing(message.id);
    let response: JsonRpcResponse | undefined | Promise<JsonRpcResponse | undefined>;
    try {
      // The principal of this request, not the session's first: a refreshed token (a step-up
      // with more scopes) is what the scope checks and `ctx.auth` must see.
      response = this.engine.request(state, message, inFlight, arrival.principal);
    } catch (error) {
      return this.requestFailed(error, message);
    }
    if (response instanceof Promise) return this.answeredLater(response, message);
    return response ? servedAnswer(response) : NOTHING;
  }

  private async notified(state: SessionState, message: JsonRpcNotification): Promise<DispatchOutcome> {
    await this.engine.notification(state, message);
    return ACCEPTED;
  }

  private async answeredLater(pending: Promise<JsonRpcResponse | undefined>, message: JsonRpcRequest): Promise<DispatchOutcome> {
    try {
      const response = await pending;
      return response ? servedAnswer(response) : NOTHING;
    } catch (error) {
      return this.requestFailed(error, message);
    }
  }

  /** A session's request that failed outside its handler: -32603 (or the error's own code) with its id. */
  private requestFailed(error: unknown, message: JsonRpcRequest): DispatchOutcome {
    return answer(failure(message.id, toErrorObject(error, message.method, this.diagnostics)));
  }

  /**
   * A JSON-RPC batch, which only a 2025-03-26 session takes: its elements admitted in order, its
   * requests run concurrently; accepted when it holds no request and no invalid element.
   */
  private async batch(values: unknown[], arrival: Arrival): Promise<DispatchOutcome> {
    const { binding } = arrival;
    let state: SessionState | undefined;
    if (binding) {
      state = binding.sessionId === undefined ? undefined : await this.store.load(binding.sessionId);
      if (!state) return refused('invalid-request', null, batchRefusal(undefined));
    } else {
      if (arrival.sessionId === undefined) return refused('invalid-request', null, batchRefusal(undefined));
      const found = await this.findSession(arrival.sessionId, arrival.versionHeader, arrival.principal);
      if ('refusal' in found) return refused(found.refusal, null, found.error);
      state = found;
    }
    if (!allowsBatches(state.protocolVersion)) return refused('invalid-request', null, batchRefusal(state.protocolVersion));
    if (values.length === 0) return refused('invalid-request', null, EMPTY_BATCH);
    const items = classifyBatch(values, this.maxJsonDepth);
    const requests = items.some((item) => item.kind === 'request');
    const overloaded = requests ? this.heap.refusal() : undefined;
    if (overloaded) return refused('overloaded', null, overloaded);
    const inFlight = requests ? arrival.open('batch', state.id, null) : undefined;
    if (!inFlight && requests) return closing(null);
    const batch = await admitBatch(this.engine, state, items, inFlight?.exchange ?? NO_EXCHANGE, this.diagnostics, arrival.principal);
    inFlight?.admitted?.(batch);
    const responses = await batch.answers;
    if (batch.requests > 0) return responses.length > 0 ? answer(responses) : NOTHING;
    // Only notifications and responses: accepted, unless some element was not a valid message.
    if (responses.length === 0) return ACCEPTED;
    return { kind: 'answer', response: responses, refusal: 'invalid-request', sessionId: state.id };
  }

  /** A request that failed on our side: -32603 with its id, its kind telling a store that is away (503, retry) from a fault. */
  private failed(error: unknown, request: JsonRpcRequest): DispatchOutcome {
    const kind: RefusalKind = error instanceof StoreUnavailableError ? 'store-unavailable' : 'internal-error';
    return refused(kind, request.id, toErrorObject(error, request.method, this.diagnostics));
  }

  /**
   * Protocol 2026-07-28: every request stands alone. On a pipe, its requests share the
   * connection's scope (`notifications/cancelled` names them, and they are capped as a session's
   * are); over HTTP each is its own scope, cancelled by its stream closing.
   */
  private statelessMessage(incoming: Classified, arrival: Arrival): DispatchOutcome | Promise<DispatchOutcome> {
    const { binding } = arrival;
    if (incoming.kind === 'notification') {
      if (binding && incoming.message.method === Notification.Cancelled) {
        this.running.cancel(binding.scope, incoming.message.params?.requestId, 'cancelled by the client');
      }
      return ACCEPTED;
    }
    if (incoming.kind === 'response') return STATELESS_RESPONSE;
    const message = (incoming as Extract<Classified, { kind: 'request' }>).message;
    if (binding) {
      // The era is decided by the first request: a request with `_meta` pins the stateless era for good.
      binding.era = 'stateless';
      const refusal = this.running.refusal(binding.scope, message.id, this.engine.maxInFlightPerSession, 'connection');
      if (refusal) return answer(failure(message.id, refusal));
    }
    const inFlight = arrival.open(message.method === StatelessMethod.Listen ? 'listen' : 'stateless', undefined, message.id);
    if (!inFlight) return closing(message.id);
    if (binding) this.running.start(binding.scope, message.id, inFlight.cancellation);
    let outcome: DispatchOutcome | Promise<DispatchOutcome>;
    try {
      outcome = this.stateless.request(message, { principal: arrival.principal, headers: arrival, cancellation: inFlight.cancellation, exchange: inFlight.exchange });
    } catch (error) {
      if (binding) this.running.finish(binding.scope, message.id);
      return this.failed(error, message);
    }
    if (outcome instanceof Promise) return this.statelessLater(outcome, message, binding);
    if (binding) this.running.finish(binding.scope, message.id);
    return outcome;
  }

  /** A stateless request that had to wait: running (on a pipe, cancellable by id) until it is answered. */
  private async statelessLater(pending: Promise<DispatchOutcome>, message: JsonRpcRequest, binding: PipeBinding | undefined): Promise<DispatchOutcome> {
    try {
      return await pending;
    } catch (error) {
      return this.failed(error, message);
    } finally {
      if (binding) this.running.finish(binding.scope, message.id);
    }
  }
}
