import { resourceNotFound } from '../error-mapper';
import { ProtocolError } from '../errors';
import { Method } from '../methods';
import type { SessionState } from '../session/session-state';
import { LOGGING_LEVELS, type JsonObject, type LoggingLevel } from '../wire.types';

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

const EMPTY = Object.freeze({}) as JsonObject;

export const LIFECYCLE_HANDLERS: ReadonlyMap<string, LifecycleHandler> = new Map<string, LifecycleHandler>([
  [Method.Ping, async () => ({ result: EMPTY, changed: false })],
  [Method.LoggingSetLevel, async (params, state) => {
    if (!LOGGING_LEVELS.includes(params.level as LoggingLevel)) {
      throw ProtocolError.invalidParams(`"level" must be one of ${LOGGING_LEVELS.join(', ')}`);
    }
    state.logLevel = params.level as LoggingLevel;
    return { result: EMPTY, changed: true };
  }],
  [Method.ResourcesSubscribe, async (params, state, { resources, maxSubscriptions }) => {
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
  }],
  [Method.ResourcesUnsubscribe, async (params, state, { resources }) => {
    const uri = resources.resourceUri(params);
    const before = state.subscriptions.length;
    state.subscriptions = state.subscriptions.filter((s) => s !== uri);
    return { result: EMPTY, changed: state.subscriptions.length !== before };
  }],
]);
