import { Context } from '../context/context';
import type { Diagnostics } from '../core/diagnostics';
import { toErrorObject, type ErrorObject } from '../core/error-mapper';
import { ProtocolError } from '../core/errors';
import type { Method } from '../core/methods';
import type { JsonObject } from '../core/wire.types';
import { completionHandlers } from './handlers/completion.handlers';
import { requireUri, type HandlerDeps, type MethodHandler } from './handlers/method-handler';
import { promptHandlers } from './handlers/prompt.handlers';
import { resourceHandlers } from './handlers/resource.handlers';
import { toolHandlers } from './handlers/tool.handlers';
import { visibleResource } from './visibility';

/** What a request came to: a result, or the JSON-RPC error to send. Never a thrown error. */
export type Outcome = { readonly result: JsonObject } | { readonly error: ErrorObject };

/**
 * The method table for the server features: tools, resources, prompts, completion. Built once;
 * callable in-process with a context, so it needs no transport to test.
 */
export class Router {
  private readonly table: ReadonlyMap<string, MethodHandler>;
  private readonly diagnostics: Diagnostics;

  constructor(private readonly deps: HandlerDeps) {
    this.diagnostics = deps.diagnostics;
    this.table = new Map([
      ...toolHandlers(deps),
      ...resourceHandlers(deps),
      ...promptHandlers(deps),
      ...completionHandlers(deps),
    ]);
  }

  /** The methods this router answers. */
  get methods(): IterableIterator<string> {
    return this.table.keys();
  }

  handles(method: string): method is Method {
    return this.table.has(method);
  }

  /** The resource URI a request names in `params[key]`, within `maxUriLength`; invalid params otherwise. */
  resourceUri(params: JsonObject, key = 'uri'): string {
    return requireUri(params, key, this.deps.maxUriLength);
  }

  /**
   * Whether `principal` may know the resource `uri` (it exists and is visible to it), by the same
   * rule as `resources/read`: what it may not read, it may not subscribe to or hear about either.
   */
  canRead(uri: string, principal: unknown): boolean {
    return visibleResource(this.deps.registry, this.deps.visible, uri, principal) !== undefined;
  }

  /** Answers one request. Whatever the input, the outcome is a result or an error object. */
  async handle(method: string, params: unknown, ctx: Context = new Context()): Promise<Outcome> {
    try {
      const handler = this.table.get(method);
      if (!handler) throw ProtocolError.methodNotFound(method);
      if (params !== undefined && params !== null && (typeof params !== 'object' || Array.isArray(params))) {
        throw ProtocolError.invalidParams('"params" must be an object');
      }
      return { result: await handler((params ?? {}) as JsonObject, ctx) };
    } catch (error) {
      return { error: toErrorObject(error, method, this.diagnostics) };
    }
  }
}
