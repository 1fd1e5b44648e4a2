import { Context } from '../context/context';
import type { Diagnostics } from '../core/diagnostics';
import { resourceNotFound, toErrorObject, type ErrorObject } from '../core/error-mapper';
import { ErrorCode } from '../core/error-codes';
import { InsufficientScopeError, ProtocolError } from '../core/errors';
import { missingScopes } from '../core/auth-info';
import type { Method } from '../core/methods';
import type { JsonObject } from '../core/wire.types';
import type { Constructor } from '../metadata/metadata-store';
import { completionHandlers } from './handlers/completion.handlers';
import { requireUri, type HandlerDeps, type MethodHandler } from './handlers/method-handler';
import { promptHandlers } from './handlers/prompt.handlers';
import { resourceHandlers } from './handlers/resource.handlers';
import { toolHandlers } from './handlers/tool.handlers';
import type { Paginator } from './pagination';
import type { OperationKind } from './pipeline/execution-context';
import { PipelineMembers } from './pipeline/pipeline-members';
import { Pipelines } from './pipeline/pipelines';
import type { Registry } from './registry';
import type { VisibilityResolver } from './visibility';
import type { ExtensionSet } from './extensions/extension-set';
import type { CacheHint } from '../metadata/cache-hint';

/** What a request came to: a result, or the JSON-RPC error to send. Never a thrown error. */
export type Outcome<T = JsonObject> = { readonly result: T } | { readonly error: ErrorObject };

/** What the router is built from. */
export interface RouterOptions {
  readonly registry: Registry;
  readonly paginator: Paginator;
  readonly diagnostics: Diagnostics;
  /** Whether an item exists and a caller may know it (the server's `visible` rule). */
  readonly visibility: VisibilityResolver;
  /** Longest resource URI a request may name (`maxUriLength`). */
  readonly maxUriLength: number;
  /** Items any one array in a tool's arguments may hold (`maxArrayItems`). */
  readonly maxArrayItems: number;
  /** Requests this node may be answering at once, whichever session or caller sent them (`maxInFlightPerNode`). */
  readonly maxInFlightPerNode?: number;
  /** Whether a template value may decode to a control character (`allowTemplateControlChars`). */
  readonly allowTemplateControlChars: boolean;
  /** Builds a guard or interceptor class named in `use` or a decorator (from the server's container). */
  readonly resolve: (cls: Constructor) => object;
  /** The server's extensions: their methods join the table, each through its own pipeline. */
  readonly extensions?: ExtensionSet;
}

/** `maxInFlightPerNode`'s default. */
export const DEFAULT_MAX_IN_FLIGHT_PER_NODE = 10_000;

/** A request beyond what this node may be answering at once. */
function busyNode(limit: number): ErrorObject {
  return {
    code: ErrorCode.TooManyRequests,
    message: `Too many requests in flight: this server is answering ${limit} already; retry when one has finished`,
    data: { maxInFlightPerNode: limit },
  };
}

/** The pipeline a protocol-owned method takes: its kind and name, for the guards and interceptors. */
export interface OperationInfo {
  readonly kind: OperationKind;
  readonly method: string;
}

/**
 * The method table for the server features: tools, resources, prompts, completion, and the
 * methods extensions add, each served through the operation pipeline. Built once; callable in-process with a context, so it needs no
 * transport to test.
 */
export class Router {
  private readonly table: ReadonlyMap<string, MethodHandler>;
  private readonly extensions: ExtensionSet | undefined;
  private readonly diagnostics: Diagnostics;
  private readonly members: PipelineMembers;
  private readonly pipelines: Pipelines;
  private readonly maxInFlight: number;
  /** Requests being answered now (`handle`), in every session and era. */
  private inFlight = 0;

  constructor(private readonly options: RouterOptions) {
    this.diagnostics = options.diagnostics;
    this.maxInFlight = options.maxInFlightPerNode ?? DEFAULT_MAX_IN_FLIGHT_PER_NODE;
    this.members = new PipelineMembers(options.resolve);
    this.pipelines = new Pipelines(this.members, options.diagnostics);
    const deps: HandlerDeps = { ...options, pipelines: this.pipelines, toolView: options.extensions?.toolView(), fallbackOf: options.extensions?.fallbackOf() };
    this.table = new Map([
      ...toolHandlers(deps),
      ...resourceHandlers(deps),
      ...promptHandlers(deps),
      ...completionHandlers(deps),
      ...(options.extensions?.handlers(this.pipelines) ?? []),
    ]);
    this.extensions = options.extensions;
  }

  /** The caching hint an extension declares for its method's stateless results. */
  methodCacheHint(method: string): CacheHint | undefined {
    return this.extensions?.cacheHint(method);
  }

  handles(method: string): method is Method {
    return this.table.has(method);
  }

  /** Adds guards and interceptors for every operation (`server.use`), after those added before. */
  use(members: readonly unknown[]): void {
    this.members.use(members);
  }

  /**
   * The scopes every operation needs: those of the server's `ScopeGuard`s (`server.use`), then
   * those every tool, prompt and resource declares alike. What a 401 challenge asks for.
   */
  scopesEveryOperationNeeds(): string[] {
    return [...new Set([...this.members.scopes(), ...this.options.registry.commonScopes()])];
  }

  /** The resource URI a request names in `params[key]`, within `maxUriLength`; invalid params otherwise. */
  resourceUri(params: JsonObject, key = 'uri'): string {
    return requireUri(params, key, this.options.maxUriLength);
  }

  /**
   * Whether `principal` may know the resource `uri` (it exists, is visible to it, and its token has
   * the scopes the resource declares), by the same rule as `resources/read`: what it may not read,
   * it may not subscribe to or hear about either.
   */
  canRead(uri: string, principal: unknown): boolean {
    return this.readRefusal(uri, principal) === undefined;
  }

  /**
   * Why `principal` may not read `uri`, as `resources/read` would refuse it: unknown (not found,
   * or hidden), or the scopes its token lacks (`InsufficientScopeError`, so a client can step up);
   * `undefined` when it may.
   */
  readRefusal(uri: string, principal: unknown): Error | undefined {
    const resolved = this.options.visibility.resource(uri, principal);
    if (!resolved) return resourceNotFound(uri);
    const required = resolved.definition.scopes;
    if (required.length === 0) return undefined;
    const missing = missingScopes(principal, required);
    return missing.length === 0 ? undefined : new InsufficientScopeError(required, missing, uri);
  }

  /**
   * Answers one request. Whatever the input, the outcome is a result or an error object. A request
   * counts against `maxInFlightPerNode` until its handler ends (a call that became a task, until
   * the task's handler ends): each session's cap times the sessions open is no bound for a node.
   */
  handle(method: string, params: unknown, ctx: Context = new Context()): Promise<Outcome> {
    const outcome = this.route(method, params, ctx);
    return outcome instanceof Promise ? outcome : Promise.resolve(outcome);
  }

  /**
   * `handle`, answered at once when nothing on the way had to wait (a synchronous handler, no
   * asynchronous guard or validation): the protocol layer's entry, which awaits only what waits.
   */
  route(method: string, params: unknown, ctx: Context): Outcome | Promise<Outcome> {
    if (this.inFlight >= this.maxInFlight) return { error: busyNode(this.maxInFlight) };
    this.inFlight += 1;
    let result: JsonObject | Promise<JsonObject>;
    try {
      const handler = this.table.get(method);
      if (!handler) throw ProtocolError.methodNotFound(method);
      if (params !== undefined && params !== null && (typeof params !== 'object' || Array.isArray(params))) {
        throw ProtocolError.invalidParams('"params" must be an object');
      }
      result = handler((params ?? {}) as JsonObject, ctx);
    } catch (error) {
      this.inFlight -= 1;
      return { error: toErrorObject(error, method, this.diagnostics) };
    }
    if (result instanceof Promise) return this.settled(method, result);
    this.inFlight -= 1;
    return { result };
  }

  /** The outcome of a handler that had to wait; the request counts as in flight until then. */
  private async settled(method: string, pending: Promise<JsonObject>): Promise<Outcome> {
    try {
      return { result: await pending };
    } catch (error) {
      return { error: toErrorObject(error, method, this.diagnostics) };
    } finally {
      this.inFlight -= 1;
    }
  }

  /**
   * Serves a method the protocol layer answers itself (ping, logging/setLevel, subscriptions,
   * discover) through the same pipeline as the router's own: the server's guards, then its
   * interceptors around `perform`. Errors are mapped as for any other request. At once when
   * neither the members nor `perform` had to wait.
   */
  operate<T>(operation: OperationInfo, params: JsonObject, ctx: Context, perform: (params: JsonObject, ctx: Context) => T | Promise<T>): Outcome<T> | Promise<Outcome<T>> {
    let result: T | Promise<T>;
    try {
      result = this.pipelines.method(operation.kind, operation.method).run(params, ctx, perform);
    } catch (error) {
      return { error: toErrorObject(error, operation.method, this.diagnostics) };
    }
    return result instanceof Promise ? this.operated(operation, result) : { result };
  }

  private async operated<T>(operation: OperationInfo, pending: Promise<T>): Promise<Outcome<T>> {
    try {
      return { result: await pending };
    } catch (error) {
      return { error: toErrorObject(error, operation.method, this.diagnostics) };
    }
  }
}
