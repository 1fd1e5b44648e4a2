import { ForbiddenError } from '../../core/errors';
import type { ExecutionContext } from './execution-context';
import type { CanActivate } from './guard';
import type { CallHandler, Interceptor } from './interceptor';

/** Runs the guards in order; the first that does not answer `true` refuses the call. */
export async function admit(guards: readonly CanActivate[], call: ExecutionContext): Promise<void> {
  for (const guard of guards) {
    const verdict = guard.canActivate(call);
    const allowed = isPromise(verdict) ? await verdict : verdict;
    if (allowed !== true) throw new ForbiddenError(`Forbidden: ${call.method}${call.target === undefined ? '' : ` of ${call.target}`} was refused by a guard`);
  }
}

/**
 * Runs `innermost` inside the interceptors, the first one outermost. Each level's `next` is made
 * when that level runs, so an interceptor may call it again (a retry) or not at all (a cache).
 */
export function intercept(interceptors: readonly Interceptor[], call: ExecutionContext, innermost: CallHandler): Promise<unknown> {
  return handlerAt(interceptors, 0, call, innermost)();
}

function handlerAt(interceptors: readonly Interceptor[], index: number, call: ExecutionContext, innermost: CallHandler): CallHandler {
  if (index === interceptors.length) return innermost;
  const interceptor = interceptors[index];
  // async: an interceptor that throws synchronously rejects like one that fails later.
  return async () => interceptor.intercept(call, handlerAt(interceptors, index + 1, call, innermost));
}

function isPromise(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | undefined)?.then === 'function';
}
