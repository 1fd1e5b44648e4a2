import type { Cancellation } from '../../core/cancellation';
import { Context } from '../../context/context';
import type { Exchange } from '../in-flight';
import type { SubscriptionHub, ListenFilter } from '../events/subscription-hub';
import { ErrorCode } from '../../core/error-codes';
import type { ErrorObject } from '../../core/error-mapper';
import { ProtocolError, requiredScopesOf } from '../../core/errors';
import { isServerClosing } from '../../core/shutdown';
import { failure, notification, success, type JsonRpcRequest } from '../../core/jsonrpc';
import { Method } from '../../core/methods';
import { statelessCapabilities, type FeatureCounts } from '../capabilities';
import type { SigningKey } from '../../core/signing-key';
import type { JsonObject } from '../../core/wire.types';
import type { OperationInfo, Router } from '../../router/router';
import type { ToolVisibility } from '../../router/visibility';
import type { Negotiation } from '../../router/extensions/extension';
import type { CacheHint } from '../../metadata/cache-hint';
import type { ClientChannel } from '../../context/client-channel';
import type { TaskStarter } from '../../context/task-starter';
import { answer, NOTHING, refused, scopeRefused, type DispatchOutcome } from '../dispatch-outcome';
import { REFUSAL_OF_CODE, type RefusalKind } from '../refusal';
import type { ServerIdentity } from '../server-identity';
import { InputChannel } from './input-channel';
import type { PendingTask, TaskService } from '../tasks/task-service';
import { taskOwner } from '../tasks/task-owner';
import { extensionTaskView } from '../tasks/task-views';
import { TaskChannel } from './task-channel';
import { TaskNotifications } from './task-notifications';
import { declaresTasks, TASK_METHODS, tasksExtensionMissing } from './task-methods';
import { MetaKey, readRequestMeta, STATELESS_VERSIONS, type RequestMeta } from './request-meta';
import { RequestStateCodec } from './request-state.codec';
import { ResultDecorator, type CacheDefaults, type CacheHints } from './result-decoration';

/** The stateless era's own methods. */
export const StatelessMethod = Object.freeze({
  Discover: 'server/discover',
  Listen: 'subscriptions/listen',
} as const);

/** The stateless era's own methods, as the operation pipeline sees them. */
const DISCOVER: OperationInfo = Object.freeze({ kind: 'protocol', method: StatelessMethod.Discover });
const LISTEN: OperationInfo = Object.freeze({ kind: 'subscription', method: StatelessMethod.Listen });

/** Notifications that only the stateless era sends. */
const ACKNOWLEDGED = 'notifications/subscriptions/acknowledged';

/** Requests that may end a round with `input_required` (the revision's list). */
const INPUT_METHODS: ReadonlySet<string> = new Set([Method.ToolsCall, Method.PromptsGet, Method.ResourcesRead]);

/**
 * HTTP only: the mirrored headers against the body, given the input schema of the tool a
 * `tools/call` names when the caller may see it (its `x-mcp-header` properties are mirrored too).
 */
export type HeaderCheck = (message: JsonRpcRequest, meta: RequestMeta, toolInputSchema: JsonObject | undefined) => ErrorObject | undefined;

/** Where the header check comes from (the transport's arrival; HTTP only). */
export interface MirroredHeaders {
  readonly checkHeaders?: HeaderCheck;
}

/** What the transport knows about one request. */
export interface StatelessFacts {
  readonly principal?: unknown;
  /** Its `checkHeaders` runs after `_meta` is read and before the version check. */
  readonly headers?: MirroredHeaders;
  /** Cancelled when the client cancels (closes the stream on HTTP, `notifications/cancelled` on stdio). */
  readonly cancellation: Cancellation;
  /** Where notifications about this request go, before its response. */
  readonly exchange: Exchange;
}

/** What the stateless era asks of the router: its methods and the operation pipeline. */
export type StatelessRouter = Pick<Router, 'handles' | 'handle' | 'operate'>;

/** What the stateless era is built from, handed in by the composition root. */
export interface StatelessEraDeps {
  readonly router: StatelessRouter;
  readonly identity: ServerIdentity;
  /** What is registered now: capabilities and the listen filter follow it. */
  readonly counts: () => FeatureCounts;
  /** The caching hints the decorators declared. */
  readonly hints: CacheHints;
  /** The `subscriptions/listen` streams of this node. */
  readonly listeners: SubscriptionHub;
  /** Tells every subscriber, in either era, that a resource changed. */
  readonly resourceUpdated: (uri: string) => Promise<void>;
  /** Tasks, shared with the session era. */
  readonly tasks: TaskService;
  /** Whether the tool `name` may run as a task; `undefined` for no such tool (cheap: every `tools/call` asks). */
  readonly toolTaskSupport: (name: string) => 'forbidden' | 'optional' | 'required' | undefined;
  /** The tools `principal` may know (the server's visibility resolver): a hidden tool is unknown, never a task, and has no schema for the header check. */
  readonly visibility: ToolVisibility;
  /** What the server's extensions advertise to a request (`capabilities.extensions`), if anything. */
  readonly advertised?: (negotiation: Negotiation) => JsonObject | undefined;
  /** The caching hint an extension declares for its method's results. */
  readonly methodCacheHint?: (method: string) => CacheHint | undefined;
}

/** Caching hints when neither the server's options nor the decorators say otherwise. */
export const DEFAULT_CACHE: CacheDefaults = Object.freeze({
  lists: Object.freeze({ ttlMs: 60_000, scope: 'public' as const }),
  reads: Object.freeze({ ttlMs: 0, scope: 'private' as const }),
  discover: Object.freeze({ ttlMs: 60_000, scope: 'public' as const }),
  listsArePrivate: false,
});

export interface StatelessOptions {
  /** Signs `requestState` (default: a random key per process; a shared one for several replicas). */
  readonly stateKey?: string | SigningKey;
  /** How long a `requestState` stays valid (default 10 minutes). */
  readonly stateTtlMs?: number;
  readonly cache: CacheDefaults;
  /** `subscriptions/listen` streams open at once on this node (default 10,000); more get -32010 (HTTP 503). */
  readonly maxListenStreams?: number;
  /** Resource URIs one listen stream may ask for (`maxSubscriptionsPerSession`, default 1,000); more get -32602. */
  readonly maxSubscriptionsPerStream?: number;
}

/**
 * Protocol 2026-07-28 on the same server: no handshake and no session. Each request carries its
 * version and capabilities in `_meta` and is checked in the revision's order (malformed `_meta`,
 * header mismatch, unsupported version, unknown method), then served by the same router as the
 * session era. Handlers do not know the difference: `ctx.elicit` and friends are answered from
 * `inputResponses`, or end the round with `input_required`.
 */
export class StatelessEra {
  private readonly states: RequestStateCodec;
  private readonly results: ResultDecorator;

  private readonly maxListenStreams: number;
  private readonly maxSubscriptionsPerStream: number;

  constructor(private readonly deps: StatelessEraDeps, options: StatelessOptions) {
    this.maxListenStreams = options.maxListenStreams ?? 10_000;
    this.maxSubscriptionsPerStream = options.maxSubscriptionsPerStream ?? 1000;
    this.states = new RequestStateCodec(options.stateKey, options.stateTtlMs);
    this.results = new ResultDecorator(deps.hints, deps.identity.info, options.cache, deps.methodCacheHint);
    new TaskNotifications(deps.tasks, deps.listeners);
  }

  /** What became of one request; a refusal comes back at once, without a promise (every request passes here). */
  request(message: JsonRpcRequest, facts: StatelessFacts): DispatchOutcome | Promise<DispatchOutcome> {
    const meta = readRequestMeta(message.params);
    if ('error' in meta) return refused('invalid-params', message.id, meta.error);
    const headerError = facts.headers?.checkHeaders?.(message, meta, this.inputSchemaOf(message, facts.principal));
    if (headerError) return refused('header-mismatch', message.id, headerError);
    if (!(STATELESS_VERSIONS as readonly string[]).includes(meta.protocolVersion)) {
      return refused('unsupported-version', message.id, {
        code: ErrorCode.UnsupportedProtocolVersion,
        message: `Unsupported protocol version: ${meta.protocolVersion}`,
        data: { supported: [...STATELESS_VERSIONS], requested: meta.protocolVersion },
      });
    }
    if (message.method === StatelessMethod.Discover) return this.discover(message, meta, facts);
    if (message.method === StatelessMethod.Listen) return this.listen(message, meta, facts);
    if (TASK_METHODS.has(message.method) && this.deps.counts().taskTools > 0) return this.taskMethod(message, meta, facts);
    if (!this.deps.router.handles(message.method)) return refused('method-not-found', message.id, ProtocolError.methodNotFound(message.method).toJSON());
    return this.serve(message, meta, facts);
  }

  /** `tasks/get`, `tasks/update`, `tasks/cancel`: only for a request that declares the extension, and through the operation pipeline. */
  private async taskMethod(message: JsonRpcRequest, meta: RequestMeta, facts: StatelessFacts): Promise<DispatchOutcome> {
    if (!declaresTasks(meta.clientCapabilities as JsonObject)) return refused('missing-capability', message.id, tasksExtensionMissing().toJSON());
    const serveTask = TASK_METHODS.get(message.method)!;
    const owner = taskOwner(facts.principal, undefined);
    const operation: OperationInfo = { kind: 'protocol', method: message.method };
    const outcome = await this.deps.router.operate(operation, message.params ?? {}, contextOf(message, meta, facts), (params) => serveTask(this.deps.tasks, params, owner));
    if ('error' in outcome) return servedError(message, outcome.error);
    return answer(success(message.id, { ...outcome.result, _meta: this.results.meta() }));
  }

  /**
   * A `tools/call` of a tool that may run as a task, from a request that declares the tasks
   * extension: the call may become a task. A tool that requires one, called without the
   * extension, is refused (-32021).
   */
  private taskOf(message: JsonRpcRequest, meta: RequestMeta, facts: StatelessFacts): PendingTask | DispatchOutcome | undefined {
    const name = message.params?.name;
    if (message.method !== Method.ToolsCall || typeof name !== 'string') return undefined;
    const support = this.deps.toolTaskSupport(name);
    if (support === undefined || support === 'forbidden' || !this.deps.visibility.tool(name, facts.principal)) return undefined;
    if (!declaresTasks(meta.clientCapabilities as JsonObject)) {
      return support === 'required' ? refused('missing-capability', message.id, tasksExtensionMissing().toJSON()) : undefined;
    }
    return this.deps.tasks.begin({
      owner: taskOwner(facts.principal, undefined),
      era: 'stateless',
      tool: name,
      channel: (taskId) => new TaskChannel(this.deps.tasks, taskId, this.deps.resourceUpdated),
    });
  }

  /** The resolved target's input schema, for the header check of a `tools/call`: the tool's own, when the caller may see it. */
  private inputSchemaOf(message: JsonRpcRequest, principal: unknown): JsonObject | undefined {
    const name = message.params?.name;
    return message.method === Method.ToolsCall && typeof name === 'string' ? this.deps.visibility.tool(name, principal)?.descriptor.inputSchema : undefined;
  }

  private async serve(message: JsonRpcRequest, meta: RequestMeta, facts: StatelessFacts): Promise<DispatchOutcome> {
    const params = message.params ?? {};
    let answers: JsonObject;
    try {
      answers = this.answersOf(message, facts.principal);
    } catch (error) {
      return refused('invalid-params', message.id, asInvalidParams(error, 'Invalid inputResponses or requestState').toJSON());
    }
    const task = this.taskOf(message, meta, facts);
    if (task && 'kind' in task) return task;
    const channel = new InputChannel(facts.exchange, answers, meta.logLevel ?? 'off', INPUT_METHODS.has(message.method), this.deps.resourceUpdated);
    const ctx = contextOf(message, meta, facts, channel, task?.starter);
    const handled = this.deps.router.handle(message.method, params, ctx);
    // A call that became a task is answered with the task once it is stored; its handler goes on.
    const outcome = task ? await Promise.race([handled, task.started]) : await handled;
    if (task?.task) {
      task.finish(handled);
      return answer(success(message.id, { resultType: 'task', ...extensionTaskView(task.task), _meta: this.results.meta() }));
    }
    if (facts.cancellation.aborted) return NOTHING;
    if (channel.inputRequests.size > 0) {
      let requestState: string;
      try {
        requestState = this.states.seal({ method: message.method, params, principal: facts.principal }, channel.used);
      } catch (error) {
        return refused('invalid-params', message.id, asInvalidParams(error, 'The request cannot be continued').toJSON());
      }
      return answer(success(message.id, {
        resultType: 'input_required',
        inputRequests: Object.fromEntries([...channel.inputRequests].map(([key, input]) => [key, { method: input.method, params: input.params }])),
        requestState,
        _meta: this.results.meta(),
      }));
    }
    if (!('result' in outcome) && !('error' in outcome)) return NOTHING;
    if ('error' in outcome) return servedError(message, outcome.error);
    return answer(success(message.id, this.results.decorate(message.method, outcome.result, params)));
  }

  /** The client's answers so far: those sealed in `requestState`, then those sent now. */
  private answersOf(message: JsonRpcRequest, principal: unknown): JsonObject {
    const params = message.params ?? {};
    const sent = params.inputResponses;
    if (sent !== undefined && (typeof sent !== 'object' || sent === null || Array.isArray(sent))) {
      throw ProtocolError.invalidParams('"inputResponses" must be an object');
    }
    const sealed = params.requestState === undefined ? {} : this.states.open(params.requestState, { method: message.method, params, principal });
    return { ...sealed, ...(sent as JsonObject | undefined) };
  }

  /** `server/discover`, through the operation pipeline. */
  private async discover(message: JsonRpcRequest, meta: RequestMeta, facts: StatelessFacts): Promise<DispatchOutcome> {
    const outcome = await this.deps.router.operate(DISCOVER, message.params ?? {}, contextOf(message, meta, facts), async () => this.description(meta));
    if ('error' in outcome) return servedError(message, outcome.error);
    return answer(success(message.id, outcome.result));
  }

  private description(meta: RequestMeta): JsonObject {
    const advertised = this.deps.advertised?.({ era: 'stateless', protocolVersion: meta.protocolVersion, clientCapabilities: meta.clientCapabilities ?? {} });
    const result: JsonObject = {
      resultType: 'complete',
      supportedVersions: [...STATELESS_VERSIONS],
      capabilities: statelessCapabilities(this.deps.counts(), advertised),
      ttlMs: this.results.discoverHint.ttlMs,
      cacheScope: this.results.discoverHint.scope,
      _meta: this.results.meta(),
    };
    if (this.deps.identity.instructions !== undefined) result.instructions = this.deps.identity.instructions;
    return result;
  }

  /**
   * A long-lived stream: acknowledged first, then only what the filter asks for, every message
   * tagged with the subscription id (the request id). Ends when the client goes away (no
   * response) or the server closes it (a graceful closing response): the server's hub ending every
   * stream, or a closing transport cancelling its own with a `ServerClosingError`.
   */
  private async listen(message: JsonRpcRequest, meta: RequestMeta, facts: StatelessFacts): Promise<DispatchOutcome> {
    const asked = message.params?.notifications;
    if (typeof asked !== 'object' || asked === null || Array.isArray(asked)) {
      return refused('invalid-params', message.id, { code: ErrorCode.InvalidParams, message: '"notifications" must be an object' });
    }
    const { resourceSubscriptions: uris, taskIds } = asked as JsonObject;
    // The tasks extension's filter, where the server serves it: for a request declaring it only, checked before its shape.
    const declared = declaresTasks(meta.clientCapabilities as JsonObject);
    const wantsTasks = taskIds !== undefined && this.deps.counts().taskTools > 0;
    if (wantsTasks && !declared) return refused('missing-capability', message.id, tasksExtensionMissing().toJSON());
    if (wantsTasks && (!Array.isArray(taskIds) || !taskIds.every((id) => typeof id === 'string'))) {
      return refused('invalid-params', message.id, { code: ErrorCode.InvalidParams, message: '"notifications.taskIds" must be an array of strings' });
    }
    // A stream holds its filter for as long as it is open: neither may grow without bound.
    for (const [asks, what] of [[uris, 'resource subscriptions'], [taskIds, 'task ids']] as const) {
      if (Array.isArray(asks) && asks.length > this.maxSubscriptionsPerStream) {
        return refused('invalid-params', message.id, {
          code: ErrorCode.InvalidParams,
          message: `Too many ${what}: a listen stream may ask for at most ${this.maxSubscriptionsPerStream}`,
          data: { maxSubscriptionsPerSession: this.maxSubscriptionsPerStream },
        });
      }
    }
    // Through the operation pipeline: its guards may refuse the stream, its interceptors see it whole.
    const outcome = await this.deps.router.operate(LISTEN, message.params ?? {}, contextOf(message, meta, facts), () => this.stream(message, asked as JsonObject, declared, facts));
    if ('error' in outcome) return servedError(message, outcome.error);
    return outcome.result === undefined ? NOTHING : answer(success(message.id, outcome.result));
  }

  /** The stream itself; its closing result, or `undefined` when the client went away. */
  private async stream(message: JsonRpcRequest, asked: JsonObject, declaresTasks: boolean, facts: StatelessFacts): Promise<JsonObject | undefined> {
    // Checked where the stream is added, with nothing awaited in between: the cap cannot be overrun.
    if (this.deps.listeners.size >= this.maxListenStreams) {
      throw new ProtocolError(ErrorCode.TooManyRequests, `Too many listen streams: this server holds at most ${this.maxListenStreams}; retry later`, { maxListenStreams: this.maxListenStreams });
    }
    const filter = agreedFilter(asked, this.deps.counts(), declaresTasks);
    const tag = { [MetaKey.subscriptionId]: message.id };
    const deliver = (method: string, params: JsonObject) => {
      if (facts.exchange.open) facts.exchange.send(notification(method, { ...params, _meta: tag }));
    };
    deliver(ACKNOWLEDGED, { notifications: filter as JsonObject });
    const closedByServer = await new Promise<boolean>((resolve) => {
      const remove = this.deps.listeners.add(filter, facts.principal, deliver, () => resolve(true));
      facts.cancellation.onCancel(() => { remove(); resolve(isServerClosing(facts.cancellation.reason)); });
    });
    return closedByServer ? { resultType: 'complete', _meta: { ...this.results.meta(), ...tag } } : undefined;
  }
}

/** Which filter flag needs which kind of thing registered. */
const FLAG_NEEDS = Object.freeze({ toolsListChanged: 'tools', promptsListChanged: 'prompts', resourcesListChanged: 'resources' } as const);

/** The subset of a requested filter this server honours: only types it advertises (the revision omits the rest; task ids need task tools). */
function agreedFilter(asked: JsonObject, counts: FeatureCounts, declaresTasks: boolean): ListenFilter {
  const filter: { -readonly [K in keyof ListenFilter]: ListenFilter[K] } = {};
  for (const [flag, kind] of Object.entries(FLAG_NEEDS) as [keyof typeof FLAG_NEEDS, keyof FeatureCounts][]) {
    if (asked[flag] === true && counts[kind] > 0) filter[flag] = true;
  }
  if (Array.isArray(asked.resourceSubscriptions) && counts.resources > 0) {
    filter.resourceSubscriptions = [...new Set(asked.resourceSubscriptions.filter((u): u is string => typeof u === 'string'))];
  }
  // Task tools may have come since `listen` checked the request: the filter holds to the same rules.
  if (Array.isArray(asked.taskIds) && counts.taskTools > 0 && declaresTasks) {
    filter.taskIds = [...new Set(asked.taskIds.filter((id): id is string => typeof id === 'string'))];
  }
  return filter;
}

function asInvalidParams(error: unknown, fallback: string): ProtocolError {
  return error instanceof ProtocolError ? error : ProtocolError.invalidParams(fallback);
}

/** The one place where an error changes between eras: resource not found is -32602 here. */
function eraError(error: ErrorObject): ErrorObject {
  return error.code === ErrorCode.ResourceNotFound ? { ...error, code: ErrorCode.InvalidParams } : error;
}

/** The handler's context for one request: who asked, with what, and its way back (none for discover and listen). */
function contextOf(message: JsonRpcRequest, meta: RequestMeta, facts: StatelessFacts, channel?: ClientChannel, taskStarter?: TaskStarter): Context {
  return new Context({
    requestId: message.id,
    signal: facts.cancellation,
    progressToken: meta.progressToken,
    clientInfo: meta.clientInfo,
    clientCapabilities: meta.clientCapabilities,
    principal: facts.principal,
    channel,
    era: 'stateless',
    protocolVersion: meta.protocolVersion,
    meta: message.params?._meta as JsonObject,
    taskStarter,
  });
}

/**
 * An error raised while serving: refused as such when the revision names it (a missing capability,
 * unknown or hidden methods) or the pipeline refused the call (a guard, the rate limit; a scope
 * guard's refusal as `insufficient-scope`, naming the scopes); any other is an ordinary answer.
 */
function servedError(message: JsonRpcRequest, error: ErrorObject): DispatchOutcome {
  const requiredScopes = requiredScopesOf(error);
  if (requiredScopes) return scopeRefused(failure(message.id, error), requiredScopes);
  const refusal: RefusalKind | undefined = REFUSAL_OF_CODE.get(error.code);
  return refusal === undefined ? answer(failure(message.id, eraError(error))) : refused(refusal, message.id, eraError(error));
}
