import type { Constructor } from '../metadata/metadata-store';
import { Method, Notification } from '../core/methods';
import { ClientError, PhantomError, ToolError } from '../core/errors';
import { clientResultProblem } from '../core/client-results';
import {
  LOGGING_LEVELS, type ClientCapabilities, type Implementation, type JsonObject, type LoggingLevel,
} from '../core/wire.types';
import type { FormElicitation, UrlElicitation } from '../schema/form-elicitation';
import { toElicitParams } from '../schema/elicitation.builder';
import { validateFormContent } from '../schema/form-content.validator';
import { formFromClass } from '../schema/form-schema.compiler';
import { Cancellation } from '../core/cancellation';
import { isAuthInfo, type AuthInfo } from '../core/auth-info';
import { abortableSleep } from './abortable-sleep';
import { DISCONNECTED_CHANNEL, type ClientChannel } from './client-channel';
import type { ContextKey } from './context-key';
import type { ElicitResult } from './elicit-result';
import type { ElicitationFallback, FallbackElicitation } from './elicitation-fallback';
import type { TaskSide, TaskStarter } from './task-starter';

/**
 * The protocol era a request was served in: `session` (2025-03-26 to 2025-11-25: `initialize`, an
 * `Mcp-Session-Id`) or `stateless` (2026-07-28: each request carries its version in `_meta`).
 */
export type ProtocolEra = 'session' | 'stateless';

/** Everything a context is made of; the protocol layer (or a test) supplies it per request. */
export interface ContextInit {
  readonly requestId?: string | number;
  /** The session the request belongs to (session era); `undefined` in the stateless era and in-process. */
  readonly sessionId?: string;
  /** Cancels the call: an `AbortSignal` of the caller's, or the protocol layer's `Cancellation`. */
  readonly signal?: AbortSignal | Cancellation;
  readonly progressToken?: string | number;
  readonly clientInfo?: Implementation;
  readonly clientCapabilities?: ClientCapabilities;
  /** What the authentication hook attached to this request, if anything. */
  readonly principal?: unknown;
  readonly channel?: ClientChannel;
  /** How long `elicit`, `sample` and `listRoots` wait for the client (default 5 minutes). */
  readonly requestTimeoutMs?: number;
  /** The era the request is served in; `undefined` in-process (`server.handle`). */
  readonly era?: ProtocolEra;
  /** The protocol revision the request is served at (the session's, or the request's own in the stateless era). */
  readonly protocolVersion?: string;
  /** The request's `params._meta`, as sent (W3C `traceparent`, `progressToken`...). */
  readonly meta?: Readonly<JsonObject>;
  /** Turns the call into a task, when it may become one (see `Context#runAsTask`); the protocol layer's. @internal */
  readonly taskStarter?: TaskStarter;
  /**
   * Answers the call's form elicitations when the client cannot (an extension's, for this
   * `tools/call`): asked before `elicit` answers `unsupported`. The request path's. @internal
   */
  readonly elicitationFallback?: ElicitationFallback;
}

/** Per-call options of `ctx.sample` and `ctx.listRoots`. */
export interface InputCallOptions {
  /**
   * Stateless era: the key this request gets in `inputRequests` (and the client's answer in
   * `inputResponses`). Default: generated from the call order, which is stable as long as the
   * handler asks in the same order on every round.
   */
  readonly key?: string;
}

/** Per-call options of `ctx.elicit`. */
export interface ElicitCallOptions extends InputCallOptions {
  /** Replaces the form's message for this call (e.g. a message built from the tool's arguments). */
  readonly message?: string;
  /**
   * `false` to answer `unsupported` to a client without form elicitation even when an extension
   * could ask the user another way (an MCP Apps form, `apps({ forms: true })`): for a question
   * that only makes sense inside the call. Default `true`.
   */
  readonly fallback?: boolean;
}

/**
 * Sends one log message (`notifications/message`) to the client: `data` is any JSON value (a
 * string, an object), `logger` names the part of the server that speaks. Messages below the level
 * the client set are dropped: in the session era the level of `logging/setLevel` (everything until
 * it is sent); in the stateless era the request's `_meta` log level (nothing when it names none).
 * The promise resolves once the message is handed to the transport.
 */
export type LogFn = (data: unknown, logger?: string) => Promise<void>;
/** `ctx.log`: one {@link LogFn} per {@link LoggingLevel}, as in `ctx.log.warning('disk almost full')`. */
export type Logger = { readonly [L in LoggingLevel]: LogFn };

/** A root the client exposes (`ctx.listRoots()`): a `file://` URI the server may work within, and an optional display name. */
export interface Root { readonly uri: string; readonly name?: string }

const FIVE_MINUTES = 5 * 60 * 1000;
const NEVER_ABORTED: AbortSignal = new AbortController().signal;

/**
 * The per-call context a handler receives as its last parameter. Everything about the call
 * (who asked, cancellation, the way back to the client) lives here, never on the handler's
 * instance, so concurrent calls never see each other's state.
 *
 * @example
 * @Tool({ description: 'Import a file' })
 * async importFile(args: ImportArgs, ctx: Context) {
 *   await ctx.progress(0, 2, 'reading');
 *   if (ctx.signal.aborted) return 'cancelled';
 *   await ctx.log.info({ file: args.path });
 *   return 'done';
 * }
 */
export class Context {
  readonly requestId: string | number | undefined;
  /** The session the request belongs to (session era); `undefined` in the stateless era and in-process. */
  readonly sessionId: string | undefined;
  readonly clientInfo: Implementation | undefined;
  readonly clientCapabilities: ClientCapabilities;
  readonly principal: unknown;
  /** The era the request is served in (`session` or `stateless`); `undefined` in-process. */
  readonly era: ProtocolEra | undefined;
  /** The protocol revision the request is served at, e.g. `2025-11-25`; `undefined` in-process. */
  readonly protocolVersion: string | undefined;
  /** The request's `params._meta`, as the client sent it (read it, do not change it); `undefined` when it sent none. */
  readonly meta: Readonly<JsonObject> | undefined;
  private channel: ClientChannel;
  private cancellation: AbortSignal | Cancellation | undefined;
  private readonly taskStarter: TaskStarter | undefined;
  private readonly elicitationFallback: ElicitationFallback | undefined;
  /** Form elicitations asked through the fallback so far: their default keys. */
  private fallbackAsked = 0;
  private readonly init: ContextInit;
  private started?: Promise<TaskSide>;
  private taskSide?: TaskSide;
  private logger?: Logger;
  private readonly progressToken: string | number | undefined;
  private readonly requestTimeoutMs: number;
  /** Per-request data of guards and interceptors; made on the first `set`. */
  private values?: Map<ContextKey<unknown>, unknown>;

  constructor(init: ContextInit = {}) {
    this.init = init;
    this.elicitationFallback = init.elicitationFallback;
    this.requestId = init.requestId;
    this.sessionId = init.sessionId;
    this.cancellation = init.signal;
    this.clientInfo = init.clientInfo;
    this.clientCapabilities = init.clientCapabilities ?? {};
    this.principal = init.principal;
    this.era = init.era;
    this.protocolVersion = init.protocolVersion;
    this.meta = init.meta;
    this.channel = init.channel ?? DISCONNECTED_CHANNEL;
    this.progressToken = init.progressToken;
    this.requestTimeoutMs = init.requestTimeoutMs ?? FIVE_MINUTES;
    this.taskStarter = init.taskStarter;
  }

  /**
   * A context for the same request made of the same parts with `changes` (a call given an
   * elicitation fallback, a tool re-run for the same caller): nothing stored with `set` carries
   * over. The request path's. @internal
   */
  derive(changes: Partial<ContextInit>): Context {
    return new Context({ ...this.init, signal: this.cancellation, channel: this.channel, ...changes });
  }

  /** Whether the request path gave this call an elicitation fallback. @internal */
  get hasElicitationFallback(): boolean {
    return this.elicitationFallback !== undefined;
  }

  /** The task this call runs as, once it does (see `runAsTask`); `undefined` before, and for a call that is no task. */
  get task(): { readonly id: string } | undefined {
    return this.taskSide && { id: this.taskSide.taskId };
  }

  /**
   * Makes the rest of this call a task, when it may become one (the tool declares `task` and the
   * client asked for a task, or can take one): the request is answered with the task at once, and
   * the handler goes on in the background; the client polls the task for its result. Resolves
   * `true` once the call runs as a task, `false` when it cannot be one (it then goes on as an
   * ordinary call). Tools with `task` start it before the handler runs, unless their `taskStart`
   * is `'explicit'`: then a handler asks what it needs first, and calls this when it is ready.
   * Read `ctx.signal` after it: the task's cancellation (`tasks/cancel`) replaces the request's.
   *
   * @example
   * @Tool({ description: 'Delete a project', task: 'required', taskStart: 'explicit' })
   * async deleteProject(args: ProjectArgs, ctx: Context) {
   *   const answer = await ctx.elicit(Confirmation);       // asked in the request itself
   *   if (answer.action !== 'accept') return 'Kept';
   *   await ctx.runAsTask();                               // the client gets the task now
   *   await this.projects.delete(args.id, ctx.signal);     // minutes, on the task
   *   return 'Deleted';
   * }
   */
  async runAsTask(): Promise<boolean> {
    if (!this.taskStarter) return false;
    this.started ??= this.taskStarter.start().then((side) => {
      this.taskSide = side;
      this.channel = side.channel;
      this.cancellation = side.cancellation;
      return side;
    });
    await this.started;
    return true;
  }

  /**
   * Per-request data: what a guard or an interceptor stored under `key` for this call, for the
   * members after it and the handler. It lives as long as the request; nothing is shared between
   * requests (keep cross-request data in an injected service).
   *
   * @example
   * const user = ctx.get(CURRENT_USER);   // set by a guard with ctx.set(CURRENT_USER, user)
   */
  get<T>(key: ContextKey<T>): T | undefined {
    return this.values?.get(key) as T | undefined;
  }

  /** Stores per-request data under `key` (see `get`). */
  set<T>(key: ContextKey<T>, value: T): void {
    (this.values ??= new Map()).set(key, value);
  }

  /** Whether anything was stored under `key` for this request. */
  has(key: ContextKey<unknown>): boolean {
    return this.values?.has(key) ?? false;
  }

  /**
   * Who the caller's verified bearer token speaks for (`oauthResourceServer`): its subject, client,
   * scopes, issuer, audiences, expiry and claims. `undefined` when the principal is not an
   * `AuthInfo` (no authentication, or a custom `authenticate` hook's own principal: read
   * `principal` then).
   *
   * @example
   * @Tool({ description: 'My notes', scopes: ['notes:read'] })
   * mine(_: unknown, ctx: Context) { return this.notes.ownedBy(ctx.auth!.subject); }
   */
  get auth(): AuthInfo | undefined {
    return isAuthInfo(this.principal) ? this.principal : undefined;
  }

  /** Aborted when the client cancels the request or goes away. */
  get signal(): AbortSignal {
    const source = this.cancellation;
    if (source instanceof Cancellation) return source.signal;
    return source ?? NEVER_ABORTED;
  }

  /**
   * Waits `ms` milliseconds, or until the call is cancelled (`ctx.signal` aborts): then it rejects
   * with the signal's reason when that is an `Error` (a `ServerClosingError`...), else with a
   * `PhantomError` coded `cancelled` (`cause`: the reason, such as the client's text). Its timer
   * and its listener on the signal are removed either way, so it can be called in a loop. `ms`
   * must be from 0 to 2^31 - 1 (`sleep_invalid` otherwise). In a task, it follows the task's
   * cancellation (`tasks/cancel`).
   *
   * @example
   * for (const step of steps) {
   *   await ctx.sleep(1000);                 // rejects, and so ends the call, once cancelled
   *   await ctx.progress(step.done, steps.length);
   * }
   */
  sleep(ms: number): Promise<void> {
    return abortableSleep(ms, this.signal);
  }

  /** Sends `notifications/message` at each level, filtered by the level the client asked for. */
  get log(): Logger {
    return (this.logger ??= Object.freeze(Object.fromEntries(
      LOGGING_LEVELS.map((level) => [level, (data: unknown, logger?: string) => this.emitLog(level, data, logger)]),
    )) as Logger);
  }

  /** Reports progress if the client asked for it (sent a `progressToken`); otherwise does nothing. */
  async progress(progress: number, total?: number, message?: string): Promise<void> {
    if (this.progressToken === undefined) return;
    const params: JsonObject = { progressToken: this.progressToken, progress };
    if (total !== undefined) params.total = total;
    if (message !== undefined) params.message = message;
    await this.channel.notify(Notification.Progress, params);
  }

  /**
   * Asks the user for input through the client. Pass an `@Elicit` class (the answer comes back as a
   * validated instance of it), or a form or URL built with `Elicit.form` / `Elicit.url`. When the
   * client did not declare the mode, nothing is sent and the result is `unsupported`, unless an
   * extension asks the user another way for this call (MCP Apps forms: `apps({ forms: true })`,
   * opted out per call with `{ fallback: false }`); its answer is validated as a client's.
   *
   * In the stateless protocol era a handler that elicits runs again from the top on each round,
   * with the answers of earlier rounds returned here: side effects before an `elicit` must be
   * idempotent.
   *
   * Rejects with a `ClientError` when the client answers with an error (or an unknown action);
   * let it pass and a tool call ends with an `isError` result that says so. In the stateless era
   * the answer arrives in the retry's `inputResponses`, so a malformed one is the retry's own
   * invalid params: this rejects with the -32602 `ProtocolError` that request is answered with.
   *
   * @example
   * const answer = await ctx.elicit(Destination);
   * if (answer.action !== 'accept') return ToolResult.error('No destination');
   * return `Booked ${answer.content.city}`;
   */
  async elicit<T>(form: Constructor<T>, options?: ElicitCallOptions): Promise<ElicitResult<T>>;
  async elicit(form: FormElicitation, options?: ElicitCallOptions): Promise<ElicitResult<Record<string, unknown>>>;
  async elicit(form: UrlElicitation, options?: ElicitCallOptions): Promise<ElicitResult<undefined>>;
  async elicit(form: Constructor | FormElicitation | UrlElicitation, options: ElicitCallOptions = {}): Promise<ElicitResult<unknown>> {
    const base = typeof form === 'function' ? formFromClass(form) : form;
    const elicitation = options.message === undefined ? base : { ...base, message: options.message };
    if (!this.supportsElicitation(elicitation.mode)) {
      if (elicitation.mode === 'form' && options.fallback !== false && this.elicitationFallback) return this.elicitElsewhere(elicitation, options.key);
      return { action: 'unsupported' };
    }
    const reply = await this.ask(Method.ElicitationCreate, toElicitParams(elicitation), options.key);
    if (reply === 'timeout') return { action: 'timeout' };
    return this.settle(elicitation, reply);
  }

  /** Asks the request path's fallback for a form the client cannot show; its answer is checked as a client's. */
  private async elicitElsewhere(elicitation: FormElicitation, key: string | undefined): Promise<ElicitResult<unknown>> {
    const fallback = this.elicitationFallback!;
    const { message, requestedSchema } = toElicitParams(elicitation) as { message: string; requestedSchema: JsonObject };
    const request: FallbackElicitation = Object.freeze({ message, requestedSchema, key: key ?? `elicit-${++this.fallbackAsked}` });
    const reply = await fallback.elicit(request);
    return this.settle(elicitation, reply, (issues) => fallback.invalid?.(request, issues));
  }

  /**
   * A reply to an elicitation, checked: its shape (a `ClientError` when malformed), then an
   * accepted form's content with the form's validator (`onInvalid` is told first, then a `ToolError`).
   */
  private async settle(
    elicitation: FormElicitation | UrlElicitation,
    reply: JsonObject,
    onInvalid?: (issues: readonly string[]) => void | Promise<void>,
  ): Promise<ElicitResult<unknown>> {
    const problem = clientResultProblem(Method.ElicitationCreate, reply);
    if (problem) throw ClientError.malformed(Method.ElicitationCreate, problem);
    const action = reply.action;
    if (action === 'decline' || action === 'cancel') return { action };
    if (elicitation.mode === 'url') return { action: 'accept', content: undefined };
    const checked = await validateFormContent(elicitation, reply.content ?? {});
    if (!checked.ok) {
      await onInvalid?.(checked.issues);
      throw new ToolError(`The answer to "${elicitation.message}" is invalid:\n${checked.issues.join('\n')}`);
    }
    return { action: 'accept', content: checked.value };
  }

  /**
   * Asks the client's model for a completion (`sampling/createMessage`). Rejects with a
   * `ClientError` when the client answers with an error, or with a result that has no `role` and
   * `content` object.
   */
  async sample(params: JsonObject, options: InputCallOptions = {}): Promise<JsonObject> {
    this.requireCapability('sampling');
    const reply = await this.ask(Method.SamplingCreateMessage, params, options.key);
    if (reply === 'timeout') throw new ToolError('The client did not answer the sampling request in time');
    const problem = clientResultProblem(Method.SamplingCreateMessage, reply);
    if (problem) throw ClientError.malformed(Method.SamplingCreateMessage, problem);
    return reply;
  }

  /**
   * The client's roots (`roots/list`), each checked to be a `file://` URI with an optional string
   * name. Rejects with a `ClientError` when the client answers with an error or a malformed list.
   */
  async listRoots(options: InputCallOptions = {}): Promise<Root[]> {
    this.requireCapability('roots');
    const reply = await this.ask(Method.RootsList, {}, options.key);
    if (reply === 'timeout') throw new ToolError('The client did not answer the roots request in time');
    const problem = clientResultProblem(Method.RootsList, reply);
    if (problem) throw ClientError.malformed(Method.RootsList, problem);
    return reply.roots as unknown as Root[];
  }

  /**
   * Ends the HTTP connection that carries this request's messages while the handler goes on; the
   * client reconnects with `Last-Event-ID` and receives the rest, result included (SSE polling,
   * for long calls behind proxies that cut idle connections). Does nothing on stdio.
   */
  async closeStream(): Promise<void> {
    await this.channel.closeStream?.();
  }

  /** Tells the clients subscribed to `uri` that it changed. */
  async resourceUpdated(uri: string): Promise<void> {
    await this.channel.resourceUpdated(uri);
  }

  private supportsElicitation(mode: 'form' | 'url'): boolean {
    const caps = this.clientCapabilities.elicitation;
    if (!caps) return false;
    // A bare `elicitation: {}` (the 2025-06-18 shape) means form mode only.
    if (mode === 'form') return caps.form !== undefined || caps.url === undefined;
    return caps.url !== undefined;
  }

  /** Throws, in the protocol era's terms, when the client lacks any of these capabilities. */
  requireCapabilities(names: readonly string[]): void {
    const missing = names.filter((name) => this.clientCapabilities[name] === undefined);
    if (missing.length === 0) return;
    throw this.channel.missingCapabilities?.(missing)
      ?? new PhantomError('client_capability_missing', `The client did not declare the capabilities: ${missing.join(', ')}`);
  }

  private requireCapability(name: 'sampling' | 'roots'): void {
    this.requireCapabilities([name]);
  }

  private async ask(method: Method, params: JsonObject, key?: string): Promise<JsonObject | 'timeout'> {
    try {
      return await this.channel.request(method, params, { signal: this.signal, timeoutMs: this.requestTimeoutMs, key });
    } catch (error) {
      if (error instanceof PhantomError && error.code === 'request_timeout') return 'timeout';
      throw error;
    }
  }

  private async emitLog(level: LoggingLevel, data: unknown, logger?: string): Promise<void> {
    const threshold = this.channel.logLevel;
    if (threshold === 'off') return;
    if (threshold && LOGGING_LEVELS.indexOf(level) < LOGGING_LEVELS.indexOf(threshold)) return;
    const params: JsonObject = { level, data };
    if (logger !== undefined) params.logger = logger;
    await this.channel.notify(Notification.Message, params);
  }
}
