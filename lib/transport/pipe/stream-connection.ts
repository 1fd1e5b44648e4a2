import { Cancellation } from '../../core/cancellation';
import type { Exchange } from '../../protocol/core/exchange';
import type { ProtocolCore } from '../../protocol/core/protocol-core';
import { ErrorCode } from '../../core/error-codes';
import { classify, dispatchByKind, failure, PARSE_ERROR, success, type ByKind, type JsonRpcBatchResponse, type JsonRpcMessage, type JsonRpcRequest, type RequestId } from '../../core/jsonrpc';
import { admitBatch, batchRefusal, classifyBatch, EMPTY_BATCH, type AdmittedBatch } from '../../protocol/session-era/batch';
import { allowsBatches } from '../../protocol/versions';
import { requestIdInUse, toErrorObject, tooManyRequests, type ErrorObject } from '../../core/error-mapper';
import { Method, Notification } from '../../core/methods';
import { carriesRequestMeta } from '../../protocol/stateless-era/request-meta';
import { StatelessMethod } from '../../protocol/stateless-era/stateless-era';
import type { SessionState } from '../../protocol/session/session-state';
import { DEFAULT_SHUTDOWN_TIMEOUT_MS, isServerClosing, ServerClosingError, SHUTDOWN_ERRORS } from '../../core/shutdown';
import { MalformedMessageError, type MessageTransport } from './message-transport';
import { RunningCalls } from '../running-calls';

export interface StreamConnectionOptions {
  /** How long running requests may still answer after the pipe closed (default 2 s). */
  readonly drainMs?: number;
  /** How long `close()` lets running requests finish before it cancels them (default 10 s). */
  readonly shutdownTimeoutMs?: number;
}

/**
 * One client on a message pipe (stdio, in-memory): one implicit session, created by `initialize`
 * and ended when the pipe closes or the server closes. Requests run concurrently; their messages
 * share the pipe.
 */
export class StreamConnection {
  /** The pipe's session, once `initialize` made it; loaded per message, since updates replace it in the store. */
  private sessionId?: string;
  private closed = false;
  private ending = false;
  private stateless = false;
  /** Closing: requests admitted from now on are answered at once with `SHUTDOWN_ERRORS.refused`. */
  private refusing = false;
  /** Messages are admitted one at a time, in order; requests then run concurrently. */
  private intake: Promise<void> = Promise.resolve();
  private readonly calls = new RunningCalls<PipeCall>();
  /** Stateless-era requests by id, for `notifications/cancelled`. */
  private readonly statelessRuns = new Map<string, PipeRequest>();
  /** `subscriptions/listen` streams, which never finish on their own. */
  private readonly listens = new RunningCalls<PipeRequest>();
  private readonly drainMs: number;
  private readonly shutdownTimeoutMs: number;
  private detach?: () => void;
  private resolveClosed!: () => void;
  /** Settles when the pipe closes. */
  readonly done = new Promise<void>((resolve) => { this.resolveClosed = resolve; });

  constructor(
    private readonly core: ProtocolCore,
    private readonly transport: MessageTransport,
    private readonly principal?: unknown,
    options: StreamConnectionOptions = {},
  ) {
    this.drainMs = options.drainMs ?? 2000;
    this.shutdownTimeoutMs = options.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS;
  }

  async start(): Promise<void> {
    this.transport.onmessage = (value) => {
      this.intake = this.intake.then(() => this.receive(value)).catch((error) => this.core.server.diagnostics.error('message failed', error));
    };
    this.transport.onerror = (error) => {
      if (error instanceof MalformedMessageError) this.intake = this.intake.then(() => this.send(failure(null, PARSE_ERROR)));
      else this.core.server.diagnostics.error('transport error', error);
    };
    this.transport.onclose = () => void this.end();
    await this.transport.start();
  }

  private readonly exchange: Exchange = this.createExchange();

  private createExchange(): Exchange {
    const connection = this;
    return { send: (message) => connection.send(message), get open() { return !connection.closed; } };
  }

  private readonly onKind: ByKind<Promise<void> | void> = {
    invalid: ({ id, error }) => this.send(failure(id, error)),
    request: ({ message }) => this.request(message),
    notification: async ({ message }) => {
      const state = await this.session();
      if (state) await this.core.notification(state, message);
      else if (message.method === Notification.Cancelled) this.statelessRuns.get(idKey(message.params?.requestId))?.cancellation.cancel('cancelled by the client');
    },
    response: async ({ message }) => {
      const state = await this.session();
      if (state) this.core.response(state, message);
    },
  };

  private async session(): Promise<SessionState | undefined> {
    return this.sessionId === undefined ? undefined : this.core.sessions.load(this.sessionId);
  }

  private async receive(value: unknown): Promise<void> {
    if (Array.isArray(value)) return this.batch(value);
    await dispatchByKind(classify(value, this.core.maxJsonDepth), this.onKind);
  }

  /** A line holding a JSON-RPC batch: answered with one line holding the array of its responses. */
  private async batch(values: unknown[]): Promise<void> {
    const state = await this.session();
    if (!state || !allowsBatches(state.protocolVersion)) return this.send(failure(null, batchRefusal(state?.protocolVersion)));
    if (values.length === 0) return this.send(failure(null, EMPTY_BATCH));
    const items = classifyBatch(values, this.core.maxJsonDepth);
    if (this.refusing && items.some((item) => item.kind === 'request')) return this.send(failure(null, SHUTDOWN_ERRORS.refused));
    const batch = await admitBatch(this.core, state, items, this.exchange);
    const call = new PipeBatch(batch);
    this.calls.add(call);
    void batch.answers
      .then((responses) => { if (responses.length > 0 && !call.givenUp) this.send(responses); })
      .finally(() => this.calls.delete(call));
  }

  private async request(message: JsonRpcRequest): Promise<void> {
    if (this.refusing) return this.send(failure(message.id, SHUTDOWN_ERRORS.refused));
    let current: SessionState | undefined;
    try {
      current = await this.session();
    } catch (error) {
      return this.failed(message, error);
    }
    if (message.method === Method.Initialize && this.sessionId === undefined && !this.stateless) {
      const initialized = await this.core.initialize(message, this.principal).catch((error: unknown) => this.failed(message, error));
      if (!initialized) return;
      const { state, response } = initialized;
      if (state) {
        this.sessionId = state.id;
        const detach = this.core.attachStandalone(state.id, (m) => this.send(m));
        const release = this.core.keepAlive(state.id);
        this.detach = () => { detach(); release(); };
      }
      return this.send(response);
    }
    // The era is decided by the first request: `_meta` with a version means 2026-07-28 for good.
    if (this.sessionId === undefined && (this.stateless || carriesRequestMeta(message.params))) {
      this.stateless = true;
      return this.statelessRequest(message);
    }
    if (!current) {
      if (message.method === Method.Ping) return this.send(success(message.id, {}));
      return this.send(failure(message.id, { code: ErrorCode.InvalidRequest, message: 'Invalid Request: the session is not initialised; send initialize first' }));
    }
    const call = new PipeRequest(message.id);
    this.calls.add(call);
    void this.core.request(current, message, this.exchange, call.cancellation)
      .then((response) => { if (response && call.answerable) this.send(response); })
      .catch((error) => { if (call.answerable) this.failed(message, error); })
      .finally(() => this.calls.delete(call));
  }

  /**
   * Protocol 2026-07-28 on the pipe: each request stands alone; `notifications/cancelled` aborts it.
   * Nothing ends them but their handlers (no connection closes per request, as on HTTP), so the
   * pipe has the cap a session has.
   */
  private statelessRequest(message: JsonRpcRequest): void {
    const key = idKey(message.id);
    // Capped as a session's requests are; a reused id of a running request would replace it.
    if (this.statelessRuns.has(key)) return this.send(failure(message.id, requestIdInUse(message.id, 'connection')));
    const limit = this.core.maxInFlightPerSession;
    if (this.statelessRuns.size >= limit) return this.send(failure(message.id, tooManyRequests(limit, 'connection')));
    const call = new PipeRequest(message.id);
    const calls = message.method === StatelessMethod.Listen ? this.listens : this.calls;
    this.statelessRuns.set(key, call);
    calls.add(call);
    // A cancelled request is not answered, but a listen stream the server closes gets its closing response.
    void this.core.stateless.request(message, { principal: this.principal, cancellation: call.cancellation, exchange: this.exchange })
      .then((outcome) => { if (outcome.response && call.answerable) this.send(outcome.response); })
      .catch((error) => { if (call.answerable) this.failed(message, error); })
      .finally(() => { calls.delete(call); this.statelessRuns.delete(key); });
  }

  /** A request whose handling threw still gets an answer: the client must not wait forever. */
  private failed(message: JsonRpcRequest, error: unknown): void {
    this.send(failure(message.id, toErrorObject(error, message.method, this.core.server.diagnostics)));
  }

  private send(message: JsonRpcMessage | JsonRpcBatchResponse): void {
    if (this.closed) return;
    this.transport.send(message).catch((error) => this.core.server.diagnostics.error('send failed', error));
  }

  /**
   * Ends the connection gracefully (the server is closing): requests that arrive from now on are
   * answered at once with an error (notifications and responses still count: an answer to
   * `ctx.elicit` lets a call finish), running ones may finish within `shutdownTimeoutMs`, those
   * left are cancelled and answered with an error carrying their id, listen streams get their
   * closing response, and the session ends. Resolves with `done`; calling it again waits for the
   * same end.
   */
  close(): Promise<void> {
    if (!this.ending) {
      this.ending = true;
      void this.shutDown();
    }
    return this.done;
  }

  private async shutDown(): Promise<void> {
    this.refusing = true;
    await this.intake;
    await this.calls.settled(this.shutdownTimeoutMs);
    const reason = new ServerClosingError();
    for (const call of this.calls) this.send(call.giveUp(reason, SHUTDOWN_ERRORS.cancelled));
    for (const listen of this.listens) listen.cancellation.cancel(reason);
    await this.listens.settled(this.shutdownTimeoutMs);
    await this.finish();
  }

  /**
   * The pipe closed (stdin reached its end): admit what was already received, give running
   * requests a moment to answer, then end the session.
   */
  private async end(): Promise<void> {
    if (this.ending) return;
    this.ending = true;
    await this.intake;
    // Listen streams never finish on their own: end them now rather than wait out the drain.
    for (const listen of this.listens) listen.cancellation.cancel('the pipe closed');
    await this.calls.settled(this.drainMs);
    await this.finish();
  }

  private async finish(): Promise<void> {
    this.closed = true;
    for (const run of this.statelessRuns.values()) run.cancellation.cancel('the pipe closed');
    this.detach?.();
    if (this.sessionId !== undefined) await this.core.endSession(this.sessionId);
    await this.transport.close();
    this.resolveClosed();
  }
}

function idKey(id: unknown): string {
  return `${typeof id}:${String(id)}`;
}

/** A request (or a batch) running on the pipe: once closing gave up on it, its own answer is dropped. */
interface PipeCall {
  givenUp: boolean;
  /** Cancels it with `reason` and returns what answers it now. */
  giveUp(reason: Error, error: ErrorObject): JsonRpcMessage | JsonRpcBatchResponse;
}

class PipeRequest implements PipeCall {
  readonly cancellation = new Cancellation();
  givenUp = false;

  constructor(private readonly id: RequestId) {}

  /**
   * Whether its own answer still goes out: not once closing gave up on it, nor once the client
   * cancelled it; a listen stream the server closed does get its closing response.
   */
  get answerable(): boolean {
    return !this.givenUp && (!this.cancellation.aborted || isServerClosing(this.cancellation.reason));
  }

  giveUp(reason: Error, error: ErrorObject): JsonRpcMessage {
    this.givenUp = true;
    this.cancellation.cancel(reason);
    return failure(this.id, error);
  }
}

class PipeBatch implements PipeCall {
  givenUp = false;

  constructor(private readonly batch: AdmittedBatch) {}

  giveUp(reason: Error, error: ErrorObject): JsonRpcBatchResponse {
    this.givenUp = true;
    return this.batch.giveUp(reason, error);
  }
}
