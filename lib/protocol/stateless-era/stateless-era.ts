import type { Cancellation } from '../../core/cancellation';
import type { Exchange } from '../in-flight';
import type { SubscriptionHub } from '../events/subscription-hub';
import { ErrorCode } from '../../core/error-codes';
import type { ErrorObject } from '../../core/error-mapper';
import { ProtocolError } from '../../core/errors';
import type { JsonRpcRequest } from '../../core/jsonrpc';
import { Method } from '../../core/methods';
import type { FeatureCounts } from '../capabilities';
import type { SigningKey } from '../../core/signing-key';
import type { JsonObject } from '../../core/wire.types';
import type { Router } from '../../router/router';
import type { ToolVisibility } from '../../router/extensions/tool-visibility';
import type { BackgroundCall, Negotiation, ToolCallInfo } from '../../router/extensions/extension';
import type { Refusal } from '../refusal';
import type { CacheHint } from '../../metadata/cache-hint';
import { refused, type DispatchOutcome } from '../dispatch-outcome';
import type { ServerIdentity } from '../server-identity';
import { InputChannel } from './input-channel';
import { readRequestMeta, STATELESS_VERSIONS, type RequestMeta } from './request-meta';
import { RequestStateCodec } from './request-state.codec';
import { ResultDecorator, type CacheDefaults, type CacheHints } from './result-decoration';
import { runMethod, type EraCodec } from '../request-runner';
import { isRefusal, isRouted, MethodTable, ROUTED } from '../method-table';
import type { ProtocolMethods } from '../era-methods';
import { statelessMethods } from './stateless-methods';
import { asInvalidParams, refusalOf, statelessCodec, type StatelessRequest } from './stateless-codec';

export { StatelessMethod } from './stateless-methods';

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
export type StatelessRouter = Pick<Router, 'handles' | 'route' | 'operate'>;

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
  /** Whether the tool `name` may run as a task; `undefined` for no such tool (cheap: every `tools/call` asks). */
  readonly toolTaskSupport: (name: string) => 'forbidden' | 'optional' | 'required' | undefined;
  /** The tools `principal` may know (the server's visibility resolver): a hidden tool is unknown, never a task, and has no schema for the header check. */
  readonly visibility: ToolVisibility;
  /** What the server's extensions advertise to a request (`capabilities.extensions`), if anything. */
  readonly advertised?: (negotiation: Negotiation) => JsonObject | undefined;
  /** The caching hint an extension declares for its method's results. */
  readonly methodCacheHint?: (method: string) => CacheHint | undefined;
  /** Whether a `tools/call` may go on in the background, as the server's extensions say (`ExtensionSet#backgroundCall`); throws to refuse it. */
  readonly backgroundCall?: (call: ToolCallInfo) => BackgroundCall | undefined;
  /** The ids a listen request asks for under the keys the server's extensions add (`ExtensionSet#listenIds`); throws to refuse it. */
  readonly listenIds?: (asked: JsonObject, negotiation: Negotiation) => Record<string, string[]> | undefined;
  /** The server's one method table, shared with the session era: the era registers its own methods in it (default: a table of its own over the router's methods). */
  readonly methods?: ProtocolMethods;
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
  /** What the stateless era's answers and contexts are made of. */
  private readonly codec: EraCodec<StatelessRequest, DispatchOutcome, JsonObject>;
  /** Every method this era serves: the router's (the extensions' among them, tasks first), discover and listen. */
  private readonly methods: ProtocolMethods;

  constructor(private readonly deps: StatelessEraDeps, options: StatelessOptions) {
    this.states = new RequestStateCodec(options.stateKey, options.stateTtlMs);
    this.results = new ResultDecorator(deps.hints, deps.identity.info, options.cache, deps.methodCacheHint);
    this.codec = statelessCodec(this.results, this.states);
    const { identity, counts, advertised, listeners, listenIds } = deps;
    this.methods = (deps.methods ?? new MethodTable((method) => deps.router.handles(method))).register(statelessMethods({
      identity, counts, advertised, listeners, listenIds, results: this.results,
      maxListenStreams: options.maxListenStreams ?? 10_000,
      maxSubscriptionsPerStream: options.maxSubscriptionsPerStream ?? 1000,
    }));
  }

  /**
   * What became of one request: at once when nothing on its way had to wait (a refusal, a
   * synchronous handler), else as a promise. Every request passes here.
   */
  request(message: JsonRpcRequest, facts: StatelessFacts): DispatchOutcome | Promise<DispatchOutcome> {
    const meta = readRequestMeta(message.params);
    if ('error' in meta) return refused('invalid-params', message.id, meta.error);
    // A `tools/call`'s tool, looked up once for the header check and the background call alike.
    const call = this.toolCallOf(message, meta, facts.principal);
    const headerError = facts.headers?.checkHeaders?.(message, meta, call?.tool?.descriptor.inputSchema);
    if (headerError) return refused('header-mismatch', message.id, headerError);
    if (!(STATELESS_VERSIONS as readonly string[]).includes(meta.protocolVersion)) {
      return refused('unsupported-version', message.id, {
        code: ErrorCode.UnsupportedProtocolVersion,
        message: `Unsupported protocol version: ${meta.protocolVersion}`,
        data: { supported: [...STATELESS_VERSIONS], requested: meta.protocolVersion },
      });
    }
    const base = requestOf(message, meta, facts);
    const served = this.methods.lookup('stateless', message.method, base);
    if (isRefusal(served)) return this.codec.refused(base, served);
    if (!isRouted(served)) return runMethod(this.codec, this.deps.router, served, base);
    return this.serve(base, call);
  }

  /** The tool a `tools/call` names, if the caller may see it, with the negotiation it was seen in. */
  private toolCallOf(message: JsonRpcRequest, meta: RequestMeta, principal: unknown): VisibleToolCall | undefined {
    const name = message.params?.name;
    if (message.method !== Method.ToolsCall || typeof name !== 'string') return undefined;
    const negotiation = negotiationOf(meta);
    return { name, negotiation, tool: this.deps.visibility.tool(name, principal, negotiation) };
  }

  /**
   * Whether a `tools/call` of a tool the caller may see may go on in the background, as the
   * server's extensions say (the tasks extension); their refusal, or an ordinary call.
   */
  private backgroundCallOf(call: VisibleToolCall | undefined, principal: unknown): BackgroundCall | Refusal | undefined {
    const { backgroundCall } = this.deps;
    if (!backgroundCall || !call?.tool) return undefined;
    try {
      return backgroundCall({ tool: call.name, taskSupport: this.deps.toolTaskSupport(call.name), principal, negotiation: call.negotiation });
    } catch (error) {
      return refusalOf(error);
    }
  }

  private serve(base: StatelessRequest, call: VisibleToolCall | undefined): DispatchOutcome | Promise<DispatchOutcome> {
    const { message, principal } = base;
    // Only a method that may end a round with input_required has rounds: for any other (an
    // extension's `tasks/update`), `inputResponses` and `requestState` are its own params.
    const rounds = INPUT_METHODS.has(message.method);
    let answers: JsonObject = NO_ANSWERS;
    try {
      if (rounds) answers = this.answersOf(message, principal);
    } catch (error) {
      return refused('invalid-params', message.id, asInvalidParams(error, 'Invalid inputResponses or requestState').toJSON());
    }
    const task = this.backgroundCallOf(call, principal);
    if (task && 'kind' in task) return this.codec.refused(base, task);
    const channel = new InputChannel(base.exchange, answers, base.meta.logLevel ?? 'off', rounds, this.deps.resourceUpdated);
    return runMethod(this.codec, this.deps.router, ROUTED, { ...base, channel }, task);
  }

  /** The client's answers so far: those sealed in `requestState`, then those sent now (none: a shared empty record). */
  private answersOf(message: JsonRpcRequest, principal: unknown): JsonObject {
    const params = message.params ?? {};
    const sent = params.inputResponses;
    if (sent !== undefined && (typeof sent !== 'object' || sent === null || Array.isArray(sent))) {
      throw ProtocolError.invalidParams('"inputResponses" must be an object');
    }
    if (params.requestState === undefined && sent === undefined) return NO_ANSWERS;
    const sealed = params.requestState === undefined ? {} : this.states.open(params.requestState, { method: message.method, params, principal });
    return { ...sealed, ...(sent as JsonObject | undefined) };
  }
}

/** The answers of a request that carries none (most): read only (`InputChannel` reads own keys). */
const NO_ANSWERS: JsonObject = Object.freeze({});

/** A `tools/call`'s name, the negotiation its request made, and its tool when the caller may see it. */
interface VisibleToolCall {
  readonly name: string;
  readonly negotiation: Negotiation;
  readonly tool: ReturnType<ToolVisibility['tool']>;
}

/** One request as the codec sees it; `channel` for a method the router serves. */
function requestOf(message: JsonRpcRequest, meta: RequestMeta, { principal, exchange, cancellation }: StatelessFacts, channel?: InputChannel): StatelessRequest {
  return { message, meta, principal, exchange, cancellation, channel };
}

/** Who a stateless request negotiated with: its version and the capabilities its `_meta` declares. */
function negotiationOf(meta: RequestMeta): Negotiation {
  return { era: 'stateless', protocolVersion: meta.protocolVersion, clientCapabilities: meta.clientCapabilities ?? {} };
}
