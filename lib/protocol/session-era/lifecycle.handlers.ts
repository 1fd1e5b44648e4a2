import { resourceNotFound } from '../../core/error-mapper';
import { ProtocolError } from '../../core/errors';
import { Method } from '../../core/methods';
import type { OperationInfo } from '../../router/router';
import type { SessionState } from '../session/session-state';
import { LOGGING_LEVELS, type JsonObject, type LoggingLevel } from '../../core/wire.types';

/** What the lifecycle methods ask of the router: a checked URI, and whether a caller may know it. */
export interface ResourceAccess {
  resourceUri(params: JsonObject): string;
  canRead(uri: string, principal: unknown): boolean;
}

/** What the lifecycle methods need besides the session: the router's resource rules, and the session limits. */
export interface LifecycleDeps {
  readonly resources: ResourceAccess;
  /** Resources one session may be subscribed to at once (`maxSubscriptionsPerSession`). */
  readonly maxSubscriptions: number;
}

/** A session-era method that reads or changes the session itself rather than the router. */
export type LifecycleHandler = (params: JsonObject, state: SessionState, deps: LifecycleDeps) => Promise<{ result: JsonObject; changed: boolean }>;

/** One lifecycle method: what the operation pipeline calls it, and what it does. */
export interface LifecycleMethod {
  readonly operation: OperationInfo;
  readonly handle: LifecycleHandler;
}

const EMPTY = Object.freeze({}) as JsonObject;

function lifecycle(method: string, kind: OperationInfo['kind'], handle: LifecycleHandler): [string, LifecycleMethod] {
  return [method, Object.freeze({ operation: Object.freeze({ kind, method }), handle })];
}

/** Served through the operation pipeline (the server's guards and interceptors), like the router's methods. */
export const LIFECYCLE_HANDLERS: ReadonlyMap<string, LifecycleMethod> = new Map<string, LifecycleMethod>([
  lifecycle(Method.Ping, 'protocol', async () => ({ result: EMPTY, changed: false })),
  lifecycle(Method.LoggingSetLevel, 'protocol', async (params, state) => {
    if (!LOGGING_LEVELS.includes(params.level as LoggingLevel)) {
      throw ProtocolError.invalidParams(`"level" must be one of ${LOGGING_LEVELS.join(', ')}`);
    }
    state.logLevel = params.level as LoggingLevel;
    return { result: EMPTY, changed: true };
  }),
  lifecycle(Method.ResourcesSubscribe, 'subscription', async (params, state, { resources, maxSubscriptions }) => {
    const uri = resources.resourceUri(params);
    // Hidden means unknown here too: subscribing answers as `resources/read` would.
    if (!resources.canRead(uri, state.principal)) throw resourceNotFound(uri);
    if (state.subscriptions.includes(uri)) return { result: EMPTY, changed: false };
    // A template matches endless URIs: without a cap, a session could hold any number of them.
    if (state.subscriptions.length >= maxSubscriptions) {
      throw ProtocolError.invalidParams(`Too many subscriptions: this session already has ${maxSubscriptions}; unsubscribe from one first`, { maxSubscriptionsPerSession: maxSubscriptions });
    }
    state.subscriptions = [...state.subscriptions, uri];
    return { result: EMPTY, changed: true };
  }),
  lifecycle(Method.ResourcesUnsubscribe, 'subscription', async (params, state, { resources }) => {
    const uri = resources.resourceUri(params);
    const before = state.subscriptions.length;
    state.subscriptions = state.subscriptions.filter((s) => s !== uri);
    return { result: EMPTY, changed: state.subscriptions.length !== before };
  }),
]);
