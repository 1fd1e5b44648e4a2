/**
 * A typed key for per-request data on the `Context`: what a guard or an interceptor learns about a
 * call (the user it resolved, when the call started) and what a later member or the handler reads.
 * Keys are compared by identity, so two members can never clash on a name.
 *
 * @example
 * export const TENANT = new ContextKey<Tenant>('tenant');
 * // in a guard:   context.set(TENANT, await this.tenants.of(context.principal));
 * // in a handler: const tenant = ctx.get(TENANT);
 */
export class ContextKey<T> {
  /** Never set: it only carries `T`, so `ctx.get(key)` is typed. */
  declare private readonly valueType?: T;

  constructor(
    /** For messages and debugging; two keys with one description are still two keys. */
    readonly description: string,
  ) {}

  /** `ContextKey(<description>)`, for messages. */
  toString(): string {
    return `ContextKey(${this.description})`;
  }
}
