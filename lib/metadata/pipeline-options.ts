import type { Constructor } from './metadata-store';

/**
 * What `@UseGuards` and `@UseInterceptors` record, as the user wrote it. The members' full
 * interfaces (`CanActivate`, `Interceptor`, with their `ExecutionContext`) belong to the router's
 * pipeline; these shapes only say enough for the decorators to type their arguments.
 */

/** An object that can decide whether a call may go on. */
export interface GuardShape {
  /** See `CanActivate#canActivate`, the full signature. */
  canActivate(context: never): boolean | Promise<boolean>;
}

/** An object that wraps an invocation. */
export interface InterceptorShape {
  /** See `Interceptor#intercept`, the full signature. */
  intercept(context: never, next: never): unknown;
}

/** A guard or an interceptor as named: a class (resolved from the server's container, once) or an instance. */
export type PipelineMemberRef<T> = Constructor<T> | T;

/** The guards and interceptors one target is served with, class-level first, each in the order written. */
export interface PipelineMembersRecord {
  readonly guards: readonly PipelineMemberRef<GuardShape>[];
  readonly interceptors: readonly PipelineMemberRef<InterceptorShape>[];
}

/** Whether `value` names a guard: a class whose instances have `canActivate`, or an object that has it. */
export function isGuardRef(value: unknown): value is PipelineMemberRef<GuardShape> {
  return hasMethod(value, 'canActivate');
}

/** Whether `value` names an interceptor: a class whose instances have `intercept`, or an object that has it. */
export function isInterceptorRef(value: unknown): value is PipelineMemberRef<InterceptorShape> {
  return hasMethod(value, 'intercept');
}

function hasMethod(value: unknown, method: string): boolean {
  if (typeof value === 'function') return typeof (value.prototype as Record<string, unknown> | undefined)?.[method] === 'function';
  return typeof value === 'object' && value !== null && typeof (value as Record<string, unknown>)[method] === 'function';
}

/** How a member is named in a start-up error. */
export function describeMemberRef(value: unknown): string {
  if (typeof value === 'function') return value.name ? `class ${value.name}` : 'an anonymous class';
  if (typeof value === 'object' && value !== null) return `an instance of ${value.constructor?.name ?? 'Object'}`;
  return String(value);
}
