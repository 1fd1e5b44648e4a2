import type { Context } from '../../context/context';
import type { Diagnostics } from '../../core/diagnostics';
import type { ClientCapabilities, JsonObject, ToolAnnotations, WireResource, WireTool } from '../../core/wire.types';
import type { ElicitationFallback } from '../../context/elicitation-fallback';
import type { CacheHint } from '../../metadata/cache-hint';
import type { ErrorObject } from '../../core/error-mapper';
import type { TaskStarter } from '../../context/task-starter';
import type { Constructor } from '../../metadata/metadata-store';
import type { PipelineMember } from '../pipeline/pipeline-members';
import type { VisibleItem } from '../visibility';


/**
 * An MCP extension (protocol 2026-07-28 `capabilities.extensions`): an identifier, what the server
 * advertises under it, the methods it adds, and the resources it serves. The framework's own
 * extensions (Skills) are built on this interface alone; a user's extension is written the same way
 * and passed in the server's `extensions` option.
 *
 * Every method an extension adds is served like `tools/list` or `tools/call`: in both protocol
 * eras and on every transport, through the operation pipeline (the server's guards, the method's
 * own `use` and `scopes`, interceptors, rate limits, telemetry), its failures mapped to JSON-RPC
 * errors as any other's.
 *
 * @example
 * const audit: Extension = {
 *   id: 'com.example/audit',
 *   settings: () => ({ retentionDays: 30 }),
 *   methods: {
 *     'audit/recent': { use: [AdminGuard], scopes: ['audit:read'], handle: async (params, ctx) => ({ entries: await log.recent(ctx.principal) }) },
 *   },
 * };
 * new PhantomServer({ name: 'notes', version: '1.0.0', providers: [NotesTools], extensions: [audit] });
 */
export interface Extension {
  /** The extension's identifier: a reverse-DNS prefix and a name, e.g. `io.modelcontextprotocol/skills`. */
  readonly id: string;
  /**
   * What the server advertises under `capabilities.extensions[id]` (in `initialize` and
   * `server/discover`), for this negotiation; `undefined` to advertise nothing to it, in which case
   * its methods are not served to that client either (method not found). Default: `{}` in both eras.
   */
  settings?(negotiation: Negotiation): JsonObject | undefined;
  /**
   * Whether a client must declare the extension (`capabilities.extensions[id]`, at `initialize` or
   * in a request's `_meta`) before its methods serve it: otherwise they are refused with -32021
   * (missing required client capability), naming the extension. Default `false`: the Skills
   * extension serves any client, as its specification says.
   */
  readonly clientMustDeclare?: boolean;
  /**
   * Server capabilities the extension needs: once every extension is set up, one the server would
   * not advertise (it serves no resource, say) fails start-up with a `DefinitionError` naming it.
   * Skills needs `resources` (it serves its files as resources, so it always has them).
   */
  readonly requires?: readonly ('tools' | 'prompts' | 'resources')[];
  /** The methods it adds, by JSON-RPC method name. A name the protocol or another extension serves fails start-up. */
  readonly methods?: Readonly<Record<string, ExtensionMethod>>;
  /**
   * Stateless era: a key it adds to the filter of `subscriptions/listen` (`params.notifications`),
   * naming ids a stream listens for (the tasks extension's `taskIds`); what happens to them is
   * announced with `ExtensionHost#notifyListeners`. Served as its methods are: ignored for a
   * request the extension advertises nothing to, refused (-32021) for one that must declare it
   * and did not.
   */
  readonly listenFilter?: ExtensionListenFilter;
  /**
   * Stateless era: lets a `tools/call` go on in the background, its request answered before its
   * handler ends (the tasks extension). Asked for each call of a tool the caller may see, before
   * it runs, while the extension advertises something to the request. One extension at most.
   */
  readonly backgroundCalls?: ExtensionBackgroundCalls;
  /**
   * Called once, when the server starts (before it serves a request): load what the extension
   * serves, register its resources, keep the host to announce changes later. A failure fails
   * `start()` (and `listen()`, `connect()`).
   */
  setup?(host: ExtensionHost): void | Promise<void>;
  /** Called once when the server closes. */
  close?(): void | Promise<void>;
  /**
   * What one client sees of a tool (MCP Apps adds `_meta.ui`, hides app-only tools from clients
   * without the extension): `tool.descriptor` as it would be listed to this negotiation, returned
   * as is, as a changed copy (never edit it), or `undefined` to hide the tool from this client.
   * Asked for `tools/list` and for `tools/call` alike, so a tool hidden from a client is unknown to
   * its calls too (answered as a tool that does not exist). Extensions are asked in order, each
   * given what the one before returned. Called per request and per tool: keep it cheap (cache by
   * `descriptor`, which is the same object until the tool changes).
   */
  tool?(tool: ExtensionTool, negotiation: Negotiation): WireTool | undefined;
  /**
   * Asks the user another way for the form elicitations of a call whose client cannot show them
   * (MCP Apps shows the form in a View): asked once per `tools/call` of a tool the caller may see,
   * before the pipeline runs it, while the extension advertises something to the request. Return
   * the fallback for this call's forms, or `undefined` to leave them `unsupported`. The first
   * extension that returns one serves the call. Not asked for a re-run that
   * `ExtensionHost#callTool` was given its own fallback for. Keep it cheap: every call asks.
   */
  elicitationFallback?(call: ElicitationFallbackCall): ElicitationFallback | undefined;
}

/** A `tools/call` an extension's elicitation fallback may serve. */
export interface ElicitationFallbackCall {
  /** The tool called (one the caller may see), as this client sees it. */
  readonly tool: ExtensionTool;
  /** The arguments as sent (before the argument pipe). */
  readonly arguments: JsonObject;
  readonly principal: unknown;
  readonly negotiation: Negotiation;
}

/**
 * A tool an extension serves itself (`ExtensionHost#serveTools`): listed, called and guarded as a
 * decorated tool is (the server's visibility rule, guards, interceptors, rate limits, telemetry),
 * its arguments checked against `inputSchema` before `handle` runs.
 */
export interface ExtensionServedTool {
  /** Its name: what `@Tool` names allow (`[A-Za-z0-9_.-]{1,64}`), unique among the server's tools. */
  readonly name: string;
  readonly title?: string;
  readonly description: string;
  /** The JSON Schema of its arguments (`type: "object"`), compiled once: a call that breaks it gets an `isError` result naming the fields. */
  readonly inputSchema: JsonObject;
  readonly annotations?: ToolAnnotations;
  /** `_meta` on its listing (MCP Apps: `ui.visibility`). */
  readonly _meta?: JsonObject;
  /** Serves one call: returns what a `@Tool` method may return; a `ToolError` thrown becomes an `isError` result. */
  handle(args: JsonObject, ctx: Context): Promise<unknown>;
}

/** Options of `ExtensionHost#callTool`. */
export interface ExtensionCallOptions {
  /** Answers the re-run's form elicitations (instead of asking the extensions' `elicitationFallback`). */
  readonly elicitation?: ElicitationFallback;
}

/**
 * Signed, expiring tokens of one purpose (`ExtensionHost#tokens`), bound to a principal: what an
 * extension hands a client to hand back later (MCP Apps: a pending form). The key is derived per
 * extension and purpose from the secret the replicas share (`stateKey`, or the `store`'s), so any
 * replica opens what another sealed; a token is not single-use.
 */
export interface ExtensionTokens {
  /** Seals `value` for `principal` (by identity: a refreshed token of the same subject opens it), valid for `ttlMs`. */
  seal(value: JsonObject, principal: unknown, ttlMs: number): string;
  /** What `token` carries, when it was sealed for this purpose, for `principal`, and has not expired; why not otherwise. */
  open(token: unknown, principal: unknown): TokenOpening;
}

/**
 * What opening a token came to: its value, or why it does not open (`invalid`: not a token of
 * this purpose, edited or malformed; `expired`; `principal`: sealed for someone else).
 */
export type TokenOpening =
  | { readonly ok: true; readonly value: JsonObject }
  | { readonly ok: false; readonly reason: 'invalid' | 'expired' | 'principal' };

/** Who the settings are for: one `initialize` (session era) or one request (stateless era). */
export interface Negotiation {
  readonly era: 'session' | 'stateless';
  /** The negotiated (session era) or requested (stateless era) protocol version; `undefined` in-process (`server.handle`). */
  readonly protocolVersion: string | undefined;
  /** What the client declared: at `initialize`, or in this request's `_meta` (the stateless era's discover may carry none). */
  readonly clientCapabilities: ClientCapabilities;
}

/** A key an extension adds to the filter of `subscriptions/listen`. */
export interface ExtensionListenFilter {
  /** The key under `notifications` (e.g. `taskIds`): one the protocol's filter and the other extensions leave alone. */
  readonly key: string;
  /**
   * The ids a stream that asked `asked` under the key listens for (duplicates are dropped), or
   * `undefined` to leave the key out. Throw a `ProtocolError` (`invalidParams`) to refuse the stream.
   * Asked when the stream opens, before the operation pipeline; at most `maxSubscriptionsPerSession`
   * ids are taken (more are refused, -32602).
   */
  accept(asked: unknown, negotiation: Negotiation): readonly string[] | undefined;
}

/** How an extension lets a `tools/call` go on in the background. */
export interface ExtensionBackgroundCalls {
  /**
   * Whether `call` may go on in the background: a `BackgroundCall` when it may (its handler
   * decides, with `ctx.runAsTask()`), `undefined` for an ordinary call. Throw a `ProtocolError` to
   * refuse the call (-32021, for a tool that must run in the background called by a client that
   * did not declare the extension).
   */
  begin(call: ToolCallInfo): BackgroundCall | undefined;
}

/** A `tools/call` as an extension that may run it in the background sees it. */
export interface ToolCallInfo {
  /** The tool's name (a tool the caller may see). */
  readonly tool: string;
  /** What the tool declared about running as a task (`@Tool({ task })`); `undefined` when it declared nothing. */
  readonly taskSupport: 'forbidden' | 'optional' | 'required' | undefined;
  readonly principal: unknown;
  readonly negotiation: Negotiation;
}

/** What a call ends with: a result, or the JSON-RPC error it would have been answered with. */
export type CallOutcome = { readonly result: JsonObject } | { readonly error: ErrorObject };

/** A call that may go on in the background. `T` is what its request is answered with once it does. */
export interface BackgroundCall<T = JsonObject> {
  /** Given to the handler's context: `ctx.runAsTask()` starts the background run. */
  readonly starter: TaskStarter;
  /** Resolves once the call runs in the background (never, for a call that stays ordinary). */
  readonly started: Promise<T>;
  /** What `started` resolved with, once it has; `undefined` before (read synchronously when the call's request is answered). */
  readonly running: T | undefined;
  /** Called once the call runs in the background: its outcome, when it comes, is the background run's. */
  finish(outcome: Promise<CallOutcome>): void;
}

/** One method an extension adds. */
export interface ExtensionMethod {
  /**
   * Serves one request: its params (an object; check what you read and throw
   * `ProtocolError.invalidParams` for what is wrong) and the handler's context (`ctx.principal`,
   * `ctx.era`, `ctx.clientCapabilities`, `ctx.signal`, `ctx.log`...). Returns the result object;
   * throw a `ProtocolError` (or `McpError`) to answer with an error. In the stateless era the
   * result gets `resultType: "complete"` unless it has one, the server's `_meta`, and the caching
   * hint below.
   */
  handle(params: JsonObject, ctx: Context): Promise<JsonObject>;
  /** Guards and interceptors for this method, after the server's own (`server.use`): classes (built from the server's container) or instances. */
  readonly use?: readonly PipelineMember[];
  /** OAuth scopes a call needs, checked before any guard (`InsufficientScopeError`, a 403 with the scopes over HTTP). */
  readonly scopes?: readonly string[];
  /** Stateless era: `ttlMs` and `cacheScope` on its results (unless the result sets its own). Default: none added. */
  readonly cache?: CacheHint;
}

/** What an extension may use of the server it is part of, handed to its `setup`. */
export interface ExtensionHost {
  readonly diagnostics: Diagnostics;
  /**
   * Serves resources as any `@Resource` is served (listed, read through `resources/read`,
   * subscribed to, completion aside), under the extension's name in start-up errors. Resources
   * added after the server started are announced with `notifications/resources/list_changed`.
   * A URI or template already served fails with a `DefinitionError` and adds nothing.
   */
  serveResources(resources: readonly ExtensionResource[]): void;
  /** Stops serving a resource added with `serveResources` (by URI or template text); announced as a change. */
  stopServingResource(uriOrTemplate: string): boolean;
  /**
   * One page of `items`, with the server's page size (`pageSize`) and its signed, opaque cursors:
   * `list` names the cursor's namespace (a cursor of one list is refused by another, -32602).
   * `cursor` is the request's, as sent.
   */
  page<T>(list: string, items: readonly T[], cursor: unknown): { readonly items: readonly T[]; readonly nextCursor?: string };
  /** Tells every client, in every era and on every replica, that the resource list changed (when the lister's answer changed). */
  resourcesChanged(): void;
  /**
   * Whether a `subscriptions/listen` stream on this node names `id` under the extension's listen
   * key (`listenFilter`): only then is it worth reading what changed.
   */
  isListenedFor(id: string): boolean;
  /**
   * Sends the notification `method` with `params` on this node's `subscriptions/listen` streams
   * naming `id` under the extension's listen key, to those whose principal `mayKnow` passes (each
   * tagged with its stream's subscription id). Every node hears its own streams: call it where the
   * change is heard on each node (through the extension's state seam), not only where it is made.
   */
  notifyListeners(id: string, method: string, params: JsonObject, mayKnow: (principal: unknown) => boolean): void;
  /** Whether the server's `visible` rule lets `principal` know `item`: hidden means unknown, everywhere. */
  isVisible(item: VisibleItem, principal: unknown): boolean;
  /** An instance of `cls` from the server's container (or its `resolve` option): the extension's services, DI-wired. */
  resolve<T>(cls: new (...args: never[]) => T): T;
  /**
   * The tools the server serves now, as listed: where each was declared (to read the extension's
   * own decorator records, keyed by `owner` and `member`) and its descriptor.
   */
  tools(): readonly ExtensionTool[];
  /**
   * Serves tools of the extension's own (MCP Apps: the tool its form View submits to) as any
   * `@Tool` is served; announced with `notifications/tools/list_changed` once the server runs. A
   * name already served, or a tool that is not well formed, fails with a `DefinitionError` and adds nothing.
   */
  serveTools(tools: readonly ExtensionServedTool[]): void;
  /**
   * Calls the tool `name` for the caller of `ctx` through the same path as `tools/call`: the
   * server's visibility rule for `ctx.principal`, the extensions' view of the tool, argument
   * validation, guards and interceptors, the result mapper. The call's form elicitations go to
   * `options.elicitation` when given. What it comes to: a result (a tool error is an `isError`
   * result) or the JSON-RPC error `tools/call` would answer.
   */
  callTool(name: string, args: JsonObject, ctx: Context, options?: ExtensionCallOptions): Promise<CallOutcome>;
  /** Signed, expiring, principal-bound tokens for `purpose` (a token of one purpose never opens as another's). */
  tokens(purpose: string): ExtensionTokens;
}

/** A tool as an extension sees it: its name, the class and method that serve it, and its listed descriptor. */
export interface ExtensionTool {
  readonly name: string;
  /** The provider class that declares it (where its decorators recorded their options). */
  readonly owner: Constructor;
  /** The method that serves it. */
  readonly member: string;
  /** The tool as listed (to this negotiation, in {@link Extension.tool}); never edit it. */
  readonly descriptor: WireTool;
}

/** A template's variables as matched: a string, or a list for an exploded variable; `{}` for a fixed URI. */
export type TemplateVariables = Readonly<Record<string, string | readonly string[]>>;

/** A resource (a fixed URI or an RFC 6570 template) an extension serves. */
export type ExtensionResource = FixedExtensionResource | TemplateExtensionResource;

interface ExtensionResourceBase {
  /** Its name (a template's in `resources/templates/list`, a fixed resource's in `resources/list`). */
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
  /** Stateless era: the caching hint on its reads. */
  readonly cache?: CacheHint;
  /**
   * Reads `uri` (with a template's variables): whatever a `@Resource` handler may return (a string,
   * bytes, `ResourceContent.text/blob`, contents objects); `undefined` when nothing is served there
   * (the client gets "resource not found").
   */
  read(uri: string, variables: TemplateVariables, ctx: Context): Promise<unknown>;
  /** `_meta` on its entry in `resources/list` (or `resources/templates/list`): MCP Apps puts `_meta.ui` there. */
  readonly _meta?: JsonObject;
}

/** A resource at one fixed URI, listed in `resources/list`. */
export interface FixedExtensionResource extends ExtensionResourceBase {
  readonly uri: string;
}

/** Resources matched by an RFC 6570 template, listed in `resources/templates/list` (and by `list`, in `resources/list`). */
export interface TemplateExtensionResource extends ExtensionResourceBase {
  readonly uriTemplate: string;
  /** The concrete resources it stands for in `resources/list` (after the visibility rule's filter). */
  list?(ctx: Context): Promise<WireResource[]>;
  /**
   * Whether the URI it matched names something `principal` may know (a skill the visibility rule
   * hides, for one): when `false`, the URI is unknown to that caller for every method (read,
   * subscribe, list), as a hidden item is.
   */
  knows?(uri: string, variables: TemplateVariables, principal: unknown): boolean;
}
