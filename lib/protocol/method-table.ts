import type { Context } from '../context/context';
import { ProtocolError } from '../core/errors';
import type { JsonObject } from '../core/wire.types';
import type { OperationKind } from '../router/pipeline/execution-context';
import type { Refusal } from './refusal';

/** The protocol eras a method may be served in. */
export type Era = 'session' | 'stateless';

/**
 * One method the protocol layer serves itself in one era (the lifecycle methods, tasks, the
 * stateless era's discover and listen): its era, the operation kind the pipeline sees it as (the
 * server's guards and interceptors run around `serve`), and how it is served. `R` is the era's
 * request (what its codec serves).
 */
export interface ProtocolMethod<R> {
  readonly method: string;
  readonly era: Era;
  /** What the guards and interceptors see it as (`ExecutionContext#kind`). */
  readonly kind: OperationKind;
  /** Whether it is served to this request now; when not, it is unknown to it (-32601). Default: always. */
  available?(request: R): boolean;
  /** A refusal of the request as such, checked before the pipeline (a capability it did not declare, a malformed filter). */
  admit?(request: R): Refusal | undefined;
  /** Serves it, inside the pipeline; `undefined` when nothing is to be answered (a stream its client left). */
  serve(params: JsonObject, request: R, ctx: Context): Promise<JsonObject | undefined>;
  /**
   * Session era: served at once, neither counted against `maxInFlightPerSession` nor cancellable
   * by `notifications/cancelled` (ping, logging, subscriptions: they read or change the session only).
   */
  readonly immediate?: boolean;
  /** Answered with what it came to even when cancelled (see `RunOptions#answersWhenCancelled`). */
  readonly answersWhenCancelled?: boolean;
}

/** A method of era `E`, served with that era's request. */
export type EraMethod<Requests extends EraRequestTypes, E extends Era = Era> = { readonly [K in E]: ProtocolMethod<Requests[K]> & { readonly era: K } }[E];

/** What each era serves its requests with. */
export type EraRequestTypes = { readonly [E in Era]: object };

/**
 * A method the router serves, in both eras: tools, resources, prompts, completion and the methods
 * extensions add, each through its own pipeline (per target, with its guards and scopes).
 */
export const ROUTED = Object.freeze({ routed: true } as const);

/** How one request's method is served: by the router, or by the protocol layer. */
export type Served<R> = typeof ROUTED | ProtocolMethod<R>;

/**
 * The one method table of the protocol layer: every method either era serves is found here, once
 * per request, or is unknown (-32601, in one place). The router's methods (tools, resources,
 * prompts, completion, extensions) are served in both eras; the methods the protocol serves itself
 * register here, each for its era, and come first in it; a method registered twice in one era fails
 * construction.
 */
export class MethodTable<Requests extends EraRequestTypes> {
  /** One map per era, keyed by the method as sent: a lookup builds no key string. */
  private readonly methods: { readonly [E in Era]: Map<string, EraMethod<Requests>> } = { session: new Map(), stateless: new Map() };

  /** `routed` says whether the router serves `method` (its own table). */
  constructor(private readonly routed: (method: string) => boolean) {}

  /**
   * Adds methods the protocol layer serves; one its era has already is a programming error. In its
   * era, it comes before a router method of the same name (2025-11-25 `tasks/get` before the tasks
   * extension's, which is unknown to that era).
   */
  register(entries: readonly EraMethod<Requests>[]): this {
    for (const entry of entries) {
      const era = this.methods[entry.era];
      if (era.has(entry.method)) throw new Error(`${entry.method} is served twice in the ${entry.era} era`);
      era.set(entry.method, Object.freeze({ ...entry }));
    }
    return this;
  }

  /** How `request`'s method is served in `era`; a refusal when it is unknown to it (-32601) or the method refuses it as such. */
  lookup<E extends Era>(era: E, method: string, request: Requests[E]): Served<Requests[E]> | Refusal {
    const entry = this.methods[era].get(method) as ProtocolMethod<Requests[E]> | undefined;
    if (entry && (entry.available?.(request) ?? true)) return entry.admit?.(request) ?? entry;
    if (this.routed(method)) return ROUTED;
    return { kind: 'method-not-found', error: ProtocolError.methodNotFound(method).toJSON() };
  }
}

/** Whether a lookup came to a refusal. */
export function isRefusal<R>(found: Served<R> | Refusal): found is Refusal {
  return 'error' in found;
}

/** Whether the router serves the method found. */
export function isRouted<R>(served: Served<R>): served is typeof ROUTED {
  return 'routed' in served;
}
