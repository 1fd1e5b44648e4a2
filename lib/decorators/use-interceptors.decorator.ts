import { METADATA_KEYS } from '../metadata/metadata-keys';
import type { InterceptorShape, PipelineMemberRef } from '../metadata/pipeline-options';
import { pipelineMemberDecorator, type ClassOrMethodDecorator } from './pipeline-member.decorator';

/**
 * Wraps the invocation of the tools, prompts and resources of a class (on the class) or of one of
 * them (on a method). Each interceptor is a class, resolved once from the server's container, or
 * an instance. The server's own interceptors (`server.use`) are outermost, then the class's, then
 * the method's, each list in the order written (the first written is the outer one).
 *
 * An interceptor's `intercept(context, next)` calls `next()` to run the rest (the promise of what
 * the handler returned), and returns what the caller gets: that value, or another in its place
 * (anything a handler may return). It may time, log or cache the call, or not call `next` at all.
 *
 * @example
 * class Cached implements Interceptor {
 *   private readonly cache = new Map<string, unknown>();
 *   async intercept({ target, arguments: args }: ExecutionContext, next: CallHandler) {
 *     const key = `${target} ${JSON.stringify(args)}`;
 *     if (!this.cache.has(key)) this.cache.set(key, await next());
 *     return this.cache.get(key);
 *   }
 * }
 *
 * class Weather {
 *   @UseInterceptors(Cached)
 *   @Tool({ description: 'Forecast' }) forecast(args: ForecastArgs) { ... }
 * }
 */
export function UseInterceptors(...interceptors: PipelineMemberRef<InterceptorShape>[]): ClassOrMethodDecorator {
  return pipelineMemberDecorator(METADATA_KEYS.interceptors, '@UseInterceptors', interceptors);
}
