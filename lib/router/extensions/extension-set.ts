import type { Context } from '../../context/context';
import { ErrorCode } from '../../core/error-codes';
import { DefinitionError, ProtocolError } from '../../core/errors';
import { Method } from '../../core/methods';
import type { ClientCapabilities, JsonObject, WireTool } from '../../core/wire.types';
import type { CacheHint } from '../../metadata/cache-hint';
import type { Constructor } from '../../metadata/metadata-store';
import { describeMemberRef, isGuardRef, isInterceptorRef } from '../../metadata/pipeline-options';
import type { FallbackOf, MethodHandler, ToolView } from '../handlers/method-handler';
import type { Pipelines } from '../pipeline/pipelines';
import type { ToolDefinition } from '../../definitions/definitions';
import type { ToolKnown } from './tool-visibility';
import type { BackgroundCall, Extension, ExtensionHost, ExtensionMethod, Negotiation, ToolCallInfo } from './extension';

/**
 * Methods the protocol serves itself (both eras; the 2025-11-25 tasks): no extension may take one.
 * The tasks extension's methods are the tasks extension's, which the server serves first.
 */
const RESERVED: ReadonlySet<string> = new Set<string>([
  ...Object.values(Method),
  'server/discover', 'subscriptions/listen',
  'tasks/result', 'tasks/list',
]);

/** The keys of the protocol's own `subscriptions/listen` filter: no extension may add one. */
const LISTEN_KEYS: ReadonlySet<string> = new Set(['toolsListChanged', 'promptsListChanged', 'resourcesListChanged', 'resourceSubscriptions']);

/** `vendor-prefix/name`: a reverse-DNS prefix, one slash, a name (the extensions framework's form). */
const EXTENSION_ID = /^[A-Za-z0-9]+(?:[.-][A-Za-z0-9]+)*\/[A-Za-z0-9][A-Za-z0-9._-]*$/;
/** A request method name: segments of letters, digits, `_` and `-`, separated by `/`. */
const METHOD_NAME = /^[A-Za-z0-9_-]+(?:\/[A-Za-z0-9_-]+)*$/;

/** The error for a request whose client did not declare an extension that requires it: -32021, naming it. */
export function extensionNotDeclared(id: string): ProtocolError {
  return new ProtocolError(ErrorCode.MissingRequiredClientCapability, `Missing required client capabilities: extensions.${id}`, {
    requiredCapabilities: { extensions: { [id]: {} } },
  });
}

/** Whether `capabilities` declares the extension `id` (`capabilities.extensions[id]`). */
export function declaresExtension(capabilities: ClientCapabilities | JsonObject | undefined, id: string): boolean {
  const extensions = (capabilities as JsonObject | undefined)?.extensions;
  return typeof extensions === 'object' && extensions !== null && !Array.isArray(extensions) && Object.hasOwn(extensions, id);
}

function noHost(extension: Extension): never {
  throw new Error(`extension ${extension.id}: no host to set it up with`);
}

/** Who a request's context negotiated with: its era, its version, what its client declared. */
function negotiationOf(ctx: Context): Negotiation {
  return { era: ctx.era ?? 'session', protocolVersion: ctx.protocolVersion, clientCapabilities: ctx.clientCapabilities };
}

/**
 * The extensions one server serves, checked once at construction (every problem at once, as a
 * `DefinitionError`): identifiers, method names (none the protocol or another extension serves),
 * pipeline members. It answers what the protocol layer asks (what to advertise to a client, a
 * method's caching hint) and gives the router its methods' handlers.
 */
export class ExtensionSet {
  private readonly extensions: readonly Extension[];
  private readonly methods = new Map<string, { readonly extension: Extension; readonly method: ExtensionMethod }>();
  /** The extension that runs calls in the background, if one does. */
  private background: Extension | undefined;
  /** The keys extensions add to the listen filter, and whose each is. */
  private readonly listenKeys = new Map<string, string>();
  private setupDone = false;
  private setupRun?: Promise<void>;

  /**
   * `hostOf` makes the host each extension's `setup` is given; `served` says how many tools,
   * prompts and resources the server has once they are set up (what `requires` is checked against).
   */
  constructor(
    extensions: readonly Extension[] = [],
    private readonly hostOf: (extension: Extension) => ExtensionHost = noHost,
    private readonly served: () => Readonly<Record<'tools' | 'prompts' | 'resources', number>> = () => ({ tools: 0, prompts: 0, resources: 0 }),
  ) {
    const problems: string[] = [];
    const ids = new Set<string>();
    for (const extension of extensions) problems.push(...this.check(extension, ids));
    if (problems.length > 0) throw new DefinitionError(problems);
    this.extensions = Object.freeze([...extensions]);
    this.setupDone = this.extensions.length === 0;
  }

  get size(): number {
    return this.extensions.length;
  }

  /** The guard and interceptor classes the methods name: the server checks their wiring at start-up, as for `server.use`. */
  memberClasses(): Constructor[] {
    return [...this.methods.values()].flatMap(({ method }) => (method.use as readonly unknown[] | undefined ?? []).filter((member): member is Constructor => typeof member === 'function'));
  }

  /** What goes under `capabilities.extensions` for `negotiation`; `undefined` when nothing is advertised. */
  advertised(negotiation: Negotiation): JsonObject | undefined {
    let advertised: JsonObject | undefined;
    for (const extension of this.extensions) {
      const settings = extension.settings ? extension.settings(negotiation) : {};
      if (settings !== undefined) (advertised ??= {})[extension.id] = settings;
    }
    return advertised;
  }

  /**
   * The ids a `subscriptions/listen` request asks for under the keys extensions add (`asked` is its
   * `notifications`), per key: a key is left out when its extension advertises nothing to the
   * request or its `accept` leaves it out; one the request must declare the extension for, and
   * did not, throws -32021; what `accept` throws is thrown.
   */
  listenIds(asked: JsonObject, negotiation: Negotiation): Record<string, string[]> | undefined {
    let ids: Record<string, string[]> | undefined;
    for (const extension of this.extensions) {
      const filter = extension.listenFilter;
      if (!filter || asked[filter.key] === undefined) continue;
      if (extension.settings && extension.settings(negotiation) === undefined) continue;
      if (extension.clientMustDeclare && !declaresExtension(negotiation.clientCapabilities, extension.id)) throw extensionNotDeclared(extension.id);
      const accepted = filter.accept(asked[filter.key], negotiation);
      if (accepted !== undefined) (ids ??= {})[filter.key] = [...new Set(accepted)];
    }
    return ids;
  }

  /**
   * Whether a `tools/call` may go on in the background, as the extension that runs calls there
   * (`backgroundCalls`) says, when it advertises something to the request; what it throws is thrown.
   */
  backgroundCall(call: ToolCallInfo): BackgroundCall | undefined {
    const extension = this.background;
    if (!extension || (extension.settings && extension.settings(call.negotiation) === undefined)) return undefined;
    return extension.backgroundCalls!.begin(call);
  }

  /** The caching hint an extension method's stateless results carry, if it declares one. */
  cacheHint(method: string): CacheHint | undefined {
    return this.methods.get(method)?.method.cache;
  }

  /**
   * What a client sees of each tool, when some extension has a `tool` hook: each asked in order,
   * given what the one before returned, until one hides the tool. `undefined` when none has one
   * (lists and calls then cost nothing more).
   */
  toolView(): ToolView | undefined {
    const viewed = this.viewed();
    return viewed && ((definition, listed, ctx) => viewed(definition, listed, negotiationOf(ctx)));
  }

  /**
   * Whether a client in a negotiation may know a tool, as the `tool` hooks say (what the protocol
   * layer asks before a call may become a task, and for the header check); `undefined` when no
   * extension has a hook.
   */
  toolKnown(): ToolKnown | undefined {
    const viewed = this.viewed();
    return viewed && ((definition, negotiation) => viewed(definition, definition.descriptor, negotiation) !== undefined);
  }

  /**
   * The elicitation fallback for one `tools/call`, as the first extension with an
   * `elicitationFallback` hook (advertising something to the request) gives it; `undefined` when
   * no extension has the hook (calls then cost nothing more).
   */
  fallbackOf(): FallbackOf | undefined {
    const hooks = this.extensions.filter((extension) => typeof extension.elicitationFallback === 'function');
    if (hooks.length === 0) return undefined;
    return (definition, listed, args, ctx) => {
      const negotiation = negotiationOf(ctx);
      const call = { tool: { name: definition.name, owner: definition.owner, member: definition.member, descriptor: listed }, arguments: args, principal: ctx.principal, negotiation };
      for (const extension of hooks) {
        if (extension.settings && extension.settings(negotiation) === undefined) continue;
        const fallback = extension.elicitationFallback!(call);
        if (fallback !== undefined) return fallback;
      }
      return undefined;
    };
  }

  /** Whether some extension's `tool` hook may make lists differ from one client to another. */
  get hasToolHooks(): boolean {
    return this.extensions.some((extension) => typeof extension.tool === 'function');
  }

  /** The tool hooks chained: each given what the one before returned, until one hides the tool. */
  private viewed(): ((definition: ToolDefinition, listed: WireTool, negotiation: Negotiation) => WireTool | undefined) | undefined {
    const hooks = this.extensions.filter((extension) => typeof extension.tool === 'function');
    if (hooks.length === 0) return undefined;
    return (definition, listed, negotiation) => {
      let seen: WireTool | undefined = listed;
      for (const extension of hooks) {
        seen = extension.tool!({ name: definition.name, owner: definition.owner, member: definition.member, descriptor: seen }, negotiation);
        if (seen === undefined) return undefined;
      }
      return seen;
    };
  }

  /** The router's table entries for every extension method: each through its own pipeline. */
  handlers(pipelines: Pipelines): [string, MethodHandler][] {
    return [...this.methods].map(([name, { extension, method }]) => [name, this.handler(pipelines, name, extension, method)]);
  }

  /**
   * Runs every extension's `setup` once, in order, with its host; the extensions' methods run it
   * first when nothing has (a request may reach a mounted handler before its server started). A
   * failure rejects, and the next call tries again.
   */
  setup(): Promise<void> {
    if (this.setupDone) return Promise.resolve();
    return (this.setupRun ??= (async () => {
      try {
        for (const extension of this.extensions) await extension.setup?.(this.hostOf(extension));
        this.checkRequirements();
        this.setupDone = true;
      } catch (error) {
        this.setupRun = undefined;
        throw error;
      }
    })());
  }

  async close(): Promise<void> {
    for (const extension of this.extensions) await extension.close?.();
  }

  /** Each extension's `requires`, against what the server serves once every extension is set up: all unmet ones at once. */
  private checkRequirements(): void {
    const served = this.served();
    const problems = this.extensions.flatMap((extension) => (extension.requires ?? [])
      .filter((capability) => !(served[capability] > 0))
      .map((capability) => `extension ${extension.id}: requires the ${capability} capability, and the server serves no ${capability}`));
    if (problems.length > 0) throw new DefinitionError(problems);
  }

  private handler(pipelines: Pipelines, name: string, extension: Extension, method: ExtensionMethod): MethodHandler {
    const perform = (params: JsonObject, ctx: Context) => method.handle(params, ctx);
    return async (params, ctx) => {
      if (!this.setupDone) await this.setup();
      // Not advertised to this client: its methods are not served to it either.
      if (extension.settings && extension.settings(negotiationOf(ctx)) === undefined) throw ProtocolError.methodNotFound(name);
      if (extension.clientMustDeclare && !declaresExtension(ctx.clientCapabilities, extension.id)) throw extensionNotDeclared(extension.id);
      const result = await pipelines.extension(name, method).run(params, ctx, perform);
      if (typeof result !== 'object' || result === null || Array.isArray(result)) {
        throw new Error(`extension ${extension.id}: ${name} returned ${result === null ? 'null' : typeof result}, not a result object`);
      }
      return result;
    };
  }

  private check(extension: Extension, ids: Set<string>): string[] {
    const label = `extension ${typeof extension?.id === 'string' ? extension.id : '(no id)'}`;
    if (typeof extension !== 'object' || extension === null) return [`extensions: ${String(extension)} is not an extension object`];
    const problems: string[] = [];
    if (typeof extension.id !== 'string' || !EXTENSION_ID.test(extension.id)) {
      problems.push(`${label}: "id" must be "vendor-prefix/name" (e.g. "com.example/audit")`);
    } else if (ids.has(extension.id)) {
      problems.push(`${label}: declared twice`);
    }
    ids.add(extension.id);
    const listen = extension.listenFilter;
    if (listen !== undefined) {
      const where = `${label}: listenFilter`;
      if (typeof listen?.key !== 'string' || listen.key.length === 0) problems.push(`${where}: "key" must be a non-empty string`);
      else if (LISTEN_KEYS.has(listen.key)) problems.push(`${where}: the protocol's filter has "${listen.key}" already`);
      else if (this.listenKeys.has(listen.key)) problems.push(`${where}: extension ${this.listenKeys.get(listen.key)} adds "${listen.key}" already`);
      else this.listenKeys.set(listen.key, extension.id);
      if (typeof listen?.accept !== 'function') problems.push(`${where}: "accept" must be a function`);
    }
    if (extension.backgroundCalls !== undefined) {
      if (typeof extension.backgroundCalls?.begin !== 'function') problems.push(`${label}: backgroundCalls: "begin" must be a function`);
      else if (this.background) problems.push(`${label}: backgroundCalls: extension ${this.background.id} runs calls in the background already`);
      else this.background = extension;
    }
    for (const [name, method] of Object.entries(extension.methods ?? {})) {
      const where = `${label}: method "${name}"`;
      if (!METHOD_NAME.test(name) || name.startsWith('notifications/')) problems.push(`${where}: not a request method name`);
      else if (RESERVED.has(name)) problems.push(`${where}: the protocol serves it already`);
      else if (this.methods.has(name)) problems.push(`${where}: extension ${this.methods.get(name)!.extension.id} serves it already`);
      if (typeof method?.handle !== 'function') problems.push(`${where}: "handle" must be a function`);
      for (const member of method?.use ?? []) {
        if (!isGuardRef(member) && !isInterceptorRef(member)) problems.push(`${where}: "use" takes guards and interceptors; got ${describeMemberRef(member)}`);
      }
      if (method?.scopes !== undefined && (!Array.isArray(method.scopes) || !method.scopes.every((scope) => typeof scope === 'string' && scope.length > 0))) {
        problems.push(`${where}: "scopes" must be an array of scope names`);
      }
      if (!this.methods.has(name)) this.methods.set(name, { extension, method });
    }
    return problems;
  }
}
