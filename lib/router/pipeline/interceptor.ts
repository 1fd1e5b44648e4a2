import type { ExecutionContext } from './execution-context';

/** Runs the rest of the chain (the next interceptor, at last the handler): the promise of what the handler returned. */
export type CallHandler = () => Promise<unknown>;

/**
 * An interceptor wraps the invocation of a call whose guards passed and whose arguments were
 * validated (NestJS's `NestInterceptor`, with a promise for the observable). It can observe the call
 * (time it, log it), change what comes back (anything a handler may return: the result is mapped
 * after it), answer without calling `next` (a cache), or fail it. A thrown error is answered as if
 * the handler had thrown it (a tool's `ToolError` becomes an `isError` result). Register one with
 * `server.use(...)` (every operation) or `@UseInterceptors(...)`.
 *
 * @example
 * class Timing implements Interceptor {
 *   async intercept({ method, target }: ExecutionContext, next: CallHandler) {
 *     const started = performance.now();
 *     try {
 *       return await next();
 *     } finally {
 *       console.error(`${method} ${target ?? ''} took ${performance.now() - started} ms`);
 *     }
 *   }
 * }
 */
export interface Interceptor {
  /**
   * Wraps one call: `next()` runs the rest of the chain (call it again to retry, or not at all to
   * answer yourself); return what the call should answer (usually what `next()` resolved to).
   */
  intercept(context: ExecutionContext, next: CallHandler): unknown;
}
