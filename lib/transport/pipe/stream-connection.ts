import { Cancellation } from '../../core/cancellation';
import { failure, PARSE_ERROR, type JsonRpcBatchResponse, type JsonRpcMessage, type RequestId } from '../../core/jsonrpc';
import type { ErrorObject } from '../../core/error-mapper';
import { isServerClosing, DEFAULT_SHUTDOWN_TIMEOUT_MS } from '../../core/shutdown';
import type { Arrival, InFlightKind } from '../../protocol/arrival';
import type { AdmittedBatch, Exchange, InFlight } from '../../protocol/in-flight';
import type { DispatchOutcome } from '../../protocol/dispatch-outcome';
import type { Dispatcher } from '../../protocol/dispatcher';
import { PipeBinding } from '../../protocol/pipe-binding';
import { MalformedMessageError, type MessageTransport } from './message-transport';
import { Drain, type Drainable } from '../drain';

export interface StreamConnectionOptions {
  /** How long running requests may still answer after the pipe closed (default 2 s). */
  readonly drainMs?: number;
  /** How long `close()` lets running requests finish before it cancels them (default 10 s). */
  readonly shutdownTimeoutMs?: number;
}

/**
 * One client on a message pipe (stdio, in-memory): framing and the connection's lifetime. Each
 * message goes to the dispatcher with the pipe's binding (its era and implicit session, which the
 * dispatcher keeps); messages are admitted one at a time, in order, and requests then run
 * concurrently, their messages sharing the pipe. The session ends when the pipe closes or the
 * server closes.
 */
export class StreamConnection {
  private readonly binding = new PipeBinding();
  private closed = false;
  private ending = false;
  /**
   * Messages are admitted one at a time, in order; requests then run concurrently. What arrives
   * while one is being admitted waits here (a line that was not JSON as `MALFORMED`, answered in
   * its turn); `waitingFrom` is the first not yet taken.
   */
  private readonly waiting: unknown[] = [];
  private waitingFrom = 0;
  private admitting = false;
  /** Inside the transport's `send`: a message it delivers from there waits for a later microtask, so sending never re-enters the dispatcher. */
  private sending = false;
  /** Messages received, and admitted, so far: closing waits until the second reaches the first. */
  private received = 0;
  private admittedCount = 0;
  private intakeWaiters: { readonly upTo: number; readonly resolve: () => void }[] = [];
  /** @internal Requests, batches and listen streams running, which closing waits for; once closing, requests admitted are answered at once with `SHUTDOWN_ERRORS.refused`. */
  readonly drain = new Drain<PipeInFlight>();
  private readonly drainMs: number;
  private readonly shutdownTimeoutMs: number;
  private detach?: () => void;
  private resolveClosed!: () => void;
  /** Settles when the pipe closes. */
  readonly done = new Promise<void>((resolve) => { this.resolveClosed = resolve; });

  /** @internal Made and started by `server.connect(transport)`. */
  constructor(
    private readonly dispatcher: Dispatcher,
    private readonly transport: MessageTransport,
    private readonly principal?: unknown,
    options: StreamConnectionOptions = {},
  ) {
    this.drainMs = options.drainMs ?? 2000;
    this.shutdownTimeoutMs = options.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS;
  }

  /** @internal Takes the transport's callbacks and starts it; `server.connect` calls it. */
  async start(): Promise<void> {
    this.transport.onmessage = (value) => this.take(value);
    this.transport.onerror = (error) => {
      if (error instanceof MalformedMessageError) this.take(MALFORMED);
      else this.dispatcher.diagnostics.error('transport error', error);
    };
    this.transport.onclose = () => void this.end();
    await this.transport.start();
  }

  /** @internal The pipe's own way back, shared by every request on it. */
  readonly exchange: Exchange = this.createExchange();

  private createExchange(): Exchange {
    const connection = this;
    return { send: (message) => connection.send(message), get open() { return !connection.closed; } };
  }

  /**
   * A message from the pipe: admitted now when none is being admitted (a client that waits for
   * each answer never waits on a turn of the loop here), else in its turn.
   */
  private take(value: unknown): void {
    this.received += 1;
    if (!this.admitting && !this.sending && this.waitingFrom === this.waiting.length) return this.admit(value);
    this.waiting.push(value);
    // Otherwise the admission under way ends by queueing `admitNext`.
    if (!this.admitting) queueMicrotask(this.admitNext);
  }

  private readonly admitNext = (): void => {
    while (!this.admitting && this.waitingFrom < this.waiting.length) {
      const value = this.waiting[this.waitingFrom];
      this.waiting[this.waitingFrom++] = undefined;
      if (this.waitingFrom === this.waiting.length) {
        this.waiting.length = 0;
        this.waitingFrom = 0;
      }
      this.admit(value);
    }
  };

  private admit(value: unknown): void {
    this.admitting = true;
    if (value !== MALFORMED) return this.receive(value);
    this.send(failure(null, PARSE_ERROR));
    this.admissionOver();
  }

  /** Hands one message to the dispatcher; the admission is over once the dispatcher opens its way, or once it is done with it. */
  private receive(value: unknown): void {
    const arrival = new PipeArrival(this, this.binding, this.principal);
    let handled: DispatchOutcome | Promise<DispatchOutcome>;
    try {
      handled = this.dispatcher.dispatch(value, arrival);
    } catch (error) {
      return this.failed(error, arrival);
    }
    // The dispatcher may answer without waiting: then so does the pipe, with no turn of the loop.
    if (!(handled instanceof Promise)) return this.handled(handled, arrival);
    handled.then((outcome) => this.handled(outcome, arrival), (error: unknown) => this.failed(error, arrival));
  }

  private handled(outcome: DispatchOutcome, arrival: PipeArrival): void {
    try {
      this.answer(outcome, arrival.call);
    } catch (error) {
      return this.failed(error, arrival);
    }
    arrival.done();
  }

  private failed(error: unknown, arrival: PipeArrival): void {
    this.dispatcher.diagnostics.error('message failed', error);
    arrival.done();
  }

  /**
   * @internal The message being admitted is: the next one waiting goes to the dispatcher on a
   * later microtask, never from inside the dispatcher's own call that admitted this one.
   */
  admissionOver(): void {
    this.admitting = false;
    this.admittedCount += 1;
    if (this.intakeWaiters.length > 0) this.wakeIntakeWaiters();
    if (this.waitingFrom < this.waiting.length) queueMicrotask(this.admitNext);
  }

  /** Resolves once every message received until now is admitted (what arrives later is not waited for). */
  private intake(): Promise<void> {
    if (this.admittedCount === this.received) return Promise.resolve();
    return new Promise((resolve) => this.intakeWaiters.push({ upTo: this.received, resolve }));
  }

  private wakeIntakeWaiters(): void {
    const waiters = this.intakeWaiters;
    this.intakeWaiters = waiters.filter((waiter) => waiter.upTo > this.admittedCount);
    for (const waiter of waiters) if (waiter.upTo <= this.admittedCount) waiter.resolve();
  }

  private answer(outcome: DispatchOutcome, call: PipeInFlight | undefined): void {
    // The pipe's session, once `initialize` made it: it hears what belongs to no request, and stays alive while the pipe is open.
    if (this.binding.sessionId !== undefined && !this.detach) this.attachSession(this.binding.sessionId);
    if (outcome.kind !== 'answer') return;
    if (call && !call.answerable) return;
    this.send(outcome.response);
  }

  private attachSession(sessionId: string): void {
    const detach = this.dispatcher.attachStandalone(sessionId, (m) => this.send(m));
    const release = this.dispatcher.keepAlive(sessionId);
    this.detach = () => { detach(); release(); };
  }

  /** @internal Writes one message (or a batch's responses) on the pipe, unless it is closed. */
  send(message: JsonRpcMessage | JsonRpcBatchResponse): void {
    if (this.closed) return;
    this.sending = true;
    try {
      this.transport.send(message).catch((error) => this.dispatcher.diagnostics.error('send failed', error));
    } finally {
      this.sending = false;
    }
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
    this.drain.stop();
    await this.intake();
    await this.drain.settle(this.shutdownTimeoutMs);
    await this.finish();
  }

  /**
   * The pipe closed (stdin reached its end): admit what was already received, give running
   * requests a moment to answer, then end the session.
   */
  private async end(): Promise<void> {
    if (this.ending) return;
    this.ending = true;
    await this.intake();
    // Listen streams never finish on their own: they end now rather than wait out the drain.
    await this.drain.abandon(this.drainMs, 'the pipe closed');
    await this.finish();
  }

  private async finish(): Promise<void> {
    this.closed = true;
    this.detach?.();
    await this.dispatcher.unbind(this.binding);
    await this.transport.close();
    this.resolveClosed();
  }
}

/** Where a line that was not JSON waits in the intake: its parse error is sent in its turn. */
const MALFORMED = Symbol('malformed line');

/**
 * What the pipe tells the dispatcher about one message: its binding and principal, and the way
 * back once a request is admitted. `admitted()` is called then, so the pipe takes the next
 * message while the request runs on (a batch: once its elements are admitted).
 */
class PipeArrival implements Arrival {
  call?: PipeInFlight;
  private listen = false;
  private over = false;

  constructor(private readonly connection: StreamConnection, readonly binding: PipeBinding, readonly principal: unknown) {}

  get accepting(): boolean {
    return this.connection.drain.accepting;
  }

  open(kind: InFlightKind, _sessionId: string | undefined, id: RequestId | null): InFlight | undefined {
    const { connection } = this;
    if (!connection.drain.accepting) return undefined;
    this.listen = kind === 'listen';
    const call = kind === 'batch' ? new PipeBatch(connection, () => this.admitted()) : new PipeRequest(id as RequestId, connection);
    this.call = call;
    connection.drain.track(call, this.listen);
    // A batch's admission is over once its elements are admitted.
    if (kind !== 'batch') this.admitted();
    return call;
  }

  /** Its admission is over (the way is open, or the dispatcher is done with it): once. */
  admitted(): void {
    if (this.over) return;
    this.over = true;
    this.connection.admissionOver();
  }

  /** The dispatcher is done with the message: closing stops waiting for its request, and its admission is over. */
  done(): void {
    if (this.call) this.connection.drain.untrack(this.call, this.listen);
    this.admitted();
  }
}

/** A request (or a batch) running on the pipe: once closing gave up on it, its own answer is dropped. */
interface PipeInFlight extends Drainable {
  readonly answerable: boolean;
}

/** One request running on the pipe (a listen stream too); its way back is the pipe's, shared by every request on it. */
class PipeRequest implements PipeInFlight {
  readonly cancellation = new Cancellation();
  private givenUp = false;

  constructor(private readonly id: RequestId, private readonly connection: StreamConnection) {}

  get exchange(): Exchange {
    return this.connection.exchange;
  }

  /**
   * Whether its own answer still goes out: not once closing gave up on it, nor once the client
   * cancelled it; a listen stream the server closed does get its closing response.
   */
  get answerable(): boolean {
    return !this.givenUp && (!this.cancellation.aborted || isServerClosing(this.cancellation.reason));
  }

  giveUp(reason: Error, error: ErrorObject): void {
    this.givenUp = true;
    this.cancellation.cancel(reason);
    this.connection.send(failure(this.id, error));
  }
}

/** A 2025-03-26 batch running on the pipe, answered as a whole. */
class PipeBatch implements PipeInFlight {
  /** Not cancelled by anything: each request of the batch has its own, which closing cancels. */
  readonly cancellation = new Cancellation();
  private batch?: AdmittedBatch;
  private givenUp = false;

  constructor(private readonly connection: StreamConnection, private readonly onAdmitted: () => void) {}

  get exchange(): Exchange {
    return this.connection.exchange;
  }

  get answerable(): boolean {
    return !this.givenUp;
  }

  admitted(batch: AdmittedBatch): void {
    this.batch = batch;
    this.onAdmitted();
  }

  giveUp(reason: Error, error: ErrorObject): void {
    this.givenUp = true;
    this.connection.send(this.batch?.giveUp(reason, error) ?? []);
  }
}
