import type { Exchange } from '../protocol/core/exchange';
import { InFlight } from '../protocol/core/in-flight';
import type { ProtocolCore } from '../protocol/core/protocol-core';
import { ErrorCode } from '../protocol/error-codes';
import { classify, dispatchByKind, failure, PARSE_ERROR, success, type ByKind, type JsonRpcBatchResponse, type JsonRpcMessage, type JsonRpcRequest, type RequestId } from '../protocol/jsonrpc';
import { admitBatch, batchRefusal, classifyBatch, EMPTY_BATCH } from '../protocol/session-era/batch';
import { allowsBatches } from '../protocol/versions';
import { toErrorObject } from '../protocol/error-mapper';
import { Method, Notification } from '../protocol/methods';
import { carriesRequestMeta } from '../protocol/stateless-era/request-meta';
import { StatelessMethod } from '../protocol/stateless-era/stateless-era';
import type { SessionState } from '../protocol/session/session-state';
import { MalformedMessageError, type MessageTransport } from './message-transport';

/**
 * One client on a message pipe (stdio, in-memory): one implicit session, created by `initialize`
 * and ended when the pipe closes. Requests run concurrently; their messages share the pipe.
 */
export class StreamConnection {
  private state?: SessionState;
  private closed = false;
  private ending = false;
  private stateless = false;
  /** Messages are admitted one at a time, in order; requests then run concurrently. */
  private intake: Promise<void> = Promise.resolve();
  private readonly running = new Set<Promise<void>>();
  /** Stateless-era requests running on this pipe, capped as a session's are. */
  private readonly statelessRuns = new InFlight();
  private readonly listens = new Set<RequestId>();
  private detach?: () => void;
  private resolveClosed!: () => void;
  /** Settles when the pipe closes. */
  readonly done = new Promise<void>((resolve) => { this.resolveClosed = resolve; });

  constructor(
    private readonly core: ProtocolCore,
    private readonly transport: MessageTransport,
    private readonly principal?: unknown,
    /** How long running requests may still answer after the pipe closed. */
    private readonly drainMs = 2000,
  ) {}

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
      if (this.state) await this.core.notification(this.state, message);
      else if (message.method === Notification.Cancelled) this.statelessRuns.cancel(PIPE, message.params?.requestId, message.params?.reason);
    },
    response: ({ message }) => {
      if (this.state) this.core.response(this.state, message);
    },
  };

  private async receive(value: unknown): Promise<void> {
    if (Array.isArray(value)) return this.batch(value);
    await dispatchByKind(classify(value, this.core.maxJsonDepth), this.onKind);
  }

  /** A line holding a JSON-RPC batch: answered with one line holding the array of its responses. */
  private async batch(values: unknown[]): Promise<void> {
    const state = this.state;
    if (!state || !allowsBatches(state.protocolVersion)) return this.send(failure(null, batchRefusal(state?.protocolVersion)));
    if (values.length === 0) return this.send(failure(null, EMPTY_BATCH));
    const batch = await admitBatch(this.core, state, classifyBatch(values, this.core.maxJsonDepth), this.exchange);
    const run = batch.answers
      .then((responses) => { if (responses.length > 0) this.send(responses); })
      .finally(() => this.running.delete(run));
    this.running.add(run);
  }

  private async request(message: JsonRpcRequest): Promise<void> {
    if (message.method === Method.Initialize && !this.state && !this.stateless) {
      const initialized = await this.core.initialize(message, this.principal).catch((error: unknown) => this.failed(message, error));
      if (!initialized) return;
      const { state, response } = initialized;
      if (state) {
        this.state = state;
        const detach = this.core.attachStandalone(state.id, (m) => this.send(m));
        const release = this.core.keepAlive(state.id);
        this.detach = () => { detach(); release(); };
      }
      return this.send(response);
    }
    // The era is decided by the first request: `_meta` with a version means 2026-07-28 for good.
    if (!this.state && (this.stateless || carriesRequestMeta(message.params))) {
      this.stateless = true;
      return this.statelessRequest(message);
    }
    if (!this.state) {
      if (message.method === Method.Ping) return this.send(success(message.id, {}));
      return this.send(failure(message.id, { code: ErrorCode.InvalidRequest, message: 'Invalid Request: the session is not initialised; send initialize first' }));
    }
    const run = this.core.request(this.state, message, this.exchange)
      .then((response) => { if (response) this.send(response); })
      .catch((error) => this.failed(message, error))
      .finally(() => this.running.delete(run));
    this.running.add(run);
  }

  /**
   * Protocol 2026-07-28 on the pipe: each request stands alone; `notifications/cancelled` aborts it.
   * Nothing ends them but their handlers (no connection closes per request, as on HTTP), so the
   * pipe has the cap a session has.
   */
  private statelessRequest(message: JsonRpcRequest): void {
    const refused = this.statelessRuns.refusal(PIPE, message.id, this.core.maxInFlightPerSession, 'connection');
    if (refused) return this.send(failure(message.id, refused));
    const controller = this.statelessRuns.start(PIPE, message.id);
    if (message.method === StatelessMethod.Listen) this.listens.add(message.id);
    const run = this.core.stateless.request(message, { principal: this.principal, cancellation: controller, exchange: this.exchange })
      .then((outcome) => { if (outcome.response && !controller.aborted) this.send(outcome.response); })
      .catch((error) => this.failed(message, error))
      .finally(() => { this.running.delete(run); this.statelessRuns.finish(PIPE, message.id); this.listens.delete(message.id); });
    this.running.add(run);
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
   * The pipe closed (stdin reached its end): admit what was already received, give running
   * requests a moment to answer, then end the session.
   */
  private async end(): Promise<void> {
    if (this.ending) return;
    this.ending = true;
    await this.intake;
    // Listen streams never finish on their own: end them now rather than wait out the drain.
    for (const id of this.listens) this.statelessRuns.cancel(PIPE, id, 'the pipe closed');
    await Promise.race([Promise.allSettled([...this.running]), new Promise((resolve) => setTimeout(resolve, this.drainMs).unref())]);
    this.closed = true;
    this.statelessRuns.cancelSession(PIPE, 'the pipe closed');
    this.detach?.();
    if (this.state) await this.core.endSession(this.state.id);
    await this.transport.close();
    this.resolveClosed();
  }
}

/** The one "session" key of the pipe's stateless runs. */
const PIPE = 'pipe';
