import { ProtocolError } from '../../core/errors';
import { Method } from '../../core/methods';
import { ErrorCode } from '../../core/error-codes';
import type { OperationKind } from '../../router/pipeline/execution-context';
import type { SessionEraMethod } from '../era-methods';
import type { SessionState } from '../seams/session-state';
import type { SessionChange, SessionStore } from '../seams/session-store';
import { LOGGING_LEVELS, type JsonObject, type LoggingLevel } from '../../core/wire.types';

/** What the lifecycle methods ask of the router: a checked URI, and whether a caller may know it. */
export interface ResourceAccess {
  resourceUri(params: JsonObject): string;
  canRead(uri: string, principal: unknown): boolean;
  /** Why `principal` may not read `uri` (unknown, or scopes missing), as `resources/read` refuses it. */
  readRefusal(uri: string, principal: unknown): Error | undefined;
}

/** What the lifecycle methods need besides the session: the router's resource rules, and the session limits. */
export interface LifecycleDeps {
  readonly resources: ResourceAccess;
  /** Resources one session may be subscribed to at once (`maxSubscriptionsPerSession`). */
  readonly maxSubscriptions: number;
}

/**
 * A session-era method that reads or changes the session itself rather than the router. A change
 * is returned, not made: the engine applies it atomically in the store, so two requests changing
 * one session at once (on one node or on two) both count. A change may throw to refuse.
 * `principal` is who sent this request: after a step-up (or a token with fewer scopes) it is not
 * the session's first.
 */
export type LifecycleHandler = (params: JsonObject, state: Readonly<SessionState>, deps: LifecycleDeps, principal: unknown) => Promise<{ result: JsonObject; change?: SessionChange }>;

const EMPTY = Object.freeze({}) as JsonObject;

/** What the lifecycle methods are served with: the router's resource rules, the session limits, and the store their changes go to. */
export interface LifecycleParts extends LifecycleDeps {
  readonly store: Pick<SessionStore, 'update'>;
}

/**
 * One lifecycle method, for the method table: served at once (no in-flight cap), through the
 * operation pipeline of `kind`; its change is applied atomically to the session in the store.
 */
function lifecycle(method: string, kind: OperationKind, handle: LifecycleHandler): (parts: LifecycleParts) => SessionEraMethod {
  return (parts) => ({
    method,
    era: 'session',
    kind,
    immediate: true,
    serve: async (params, { state, principal }) => {
      const { result, change } = await handle(params, state, parts, principal);
      // A session that ended meanwhile stays ended: an update never brings it back.
      if (change) await parts.store.update(state.id, change);
      return result;
    },
  });
}

/** `initialize` on a session that has one: refused as an invalid request (a new session starts without a session id). */
const INITIALIZE_AGAIN: SessionEraMethod = Object.freeze<SessionEraMethod>({
  method: Method.Initialize,
  era: 'session',
  kind: 'protocol',
  admit: () => ({ kind: 'invalid-request', error: { code: ErrorCode.InvalidRequest, message: 'Invalid Request: the session is already initialised' } }),
  serve: async () => EMPTY,
});

/** The session era's own methods, for the method table. */
export function lifecycleMethods(parts: LifecycleParts): SessionEraMethod[] {
  return [INITIALIZE_AGAIN, ...LIFECYCLE.map((method) => method(parts))];
}

/** Served through the operation pipeline (the server's guards and interceptors), like the router's methods. */
const LIFECYCLE: readonly ((parts: LifecycleParts) => SessionEraMethod)[] = [
  lifecycle(Method.Ping, 'protocol', async () => ({ result: EMPTY })),
  lifecycle(Method.LoggingSetLevel, 'protocol', async (params, state) => {
    if (!LOGGING_LEVELS.includes(params.level as LoggingLevel)) {
      throw ProtocolError.invalidParams(`"level" must be one of ${LOGGING_LEVELS.join(', ')}`);
    }
    const level = params.level as LoggingLevel;
    return { result: EMPTY, change: (current) => (current.logLevel === level ? undefined : { ...current, logLevel: level }) };
  }),
  lifecycle(Method.ResourcesSubscribe, 'subscription', async (params, _state, { resources, maxSubscriptions }, principal) => {
    const uri = resources.resourceUri(params);
    // Hidden means unknown here too: subscribing answers as `resources/read` would.
    const refusal = resources.readRefusal(uri, principal);
    if (refusal) throw refusal;
    return {
      result: EMPTY,
      change: (current) => {
        if (current.subscriptions.includes(uri)) return undefined;
        // A template matches endless URIs: without a cap, a session could hold any number of them.
        if (current.subscriptions.length >= maxSubscriptions) {
          throw ProtocolError.invalidParams(`Too many subscriptions: this session already has ${maxSubscriptions}; unsubscribe from one first`, { maxSubscriptionsPerSession: maxSubscriptions });
        }
        return { ...current, subscriptions: [...current.subscriptions, uri] };
      },
    };
  }),
  lifecycle(Method.ResourcesUnsubscribe, 'subscription', async (params, _state, { resources }) => {
    const uri = resources.resourceUri(params);
    return {
      result: EMPTY,
      change: (current) => (current.subscriptions.includes(uri) ? { ...current, subscriptions: current.subscriptions.filter((s) => s !== uri) } : undefined),
    };
  }),
];
