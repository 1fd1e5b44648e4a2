import { ErrorCode } from '../../core/error-codes';
import { ProtocolError } from '../../core/errors';
import { notification } from '../../core/jsonrpc';
import { isServerClosing } from '../../core/shutdown';
import type { JsonObject } from '../../core/wire.types';
import type { Negotiation } from '../../router/extensions/extension';
import { statelessCapabilities, type FeatureCounts } from '../capabilities';
import type { StatelessEraMethod } from '../era-methods';
import { filterAsSent, type ListenFilter, type SubscriptionHub } from '../events/subscription-hub';
import type { Refusal } from '../refusal';
import type { ServerIdentity } from '../server-identity';
import { MetaKey, STATELESS_VERSIONS } from './request-meta';
import type { ResultDecorator } from './result-decoration';
import { refusalOf, type StatelessRequest } from './stateless-codec';

/** The stateless era's own methods. */
export const StatelessMethod = Object.freeze({
  Discover: 'server/discover',
  Listen: 'subscriptions/listen',
} as const);

/** Notifications that only the stateless era sends. */
const ACKNOWLEDGED = 'notifications/subscriptions/acknowledged';

/** What the stateless era's own methods are served with. */
export interface StatelessMethodParts {
  readonly identity: ServerIdentity;
  /** What is registered now: capabilities and the listen filter follow it. */
  readonly counts: () => FeatureCounts;
  /** What the server's extensions advertise to a request (`capabilities.extensions`), if anything. */
  readonly advertised?: (negotiation: Negotiation) => JsonObject | undefined;
  readonly results: ResultDecorator;
  /** The `subscriptions/listen` streams of this node. */
  readonly listeners: SubscriptionHub;
  /** `subscriptions/listen` streams open at once on this node. */
  readonly maxListenStreams: number;
  /** Resource URIs (and ids under each extension's key) one listen stream may ask for. */
  readonly maxSubscriptionsPerStream: number;
  /** The ids a listen request asks for under the keys the server's extensions add (the tasks extension's `taskIds`); throws to refuse it. */
  readonly listenIds?: (asked: JsonObject, negotiation: Negotiation) => Record<string, string[]> | undefined;
}

/** `server/discover` and `subscriptions/listen`, for the method table. */
export function statelessMethods(parts: StatelessMethodParts): StatelessEraMethod[] {
  return [discover(parts), listen(parts)];
}

/** `server/discover`: the versions, capabilities and instructions, with the discover caching hint. */
function discover({ identity, counts, advertised, results }: StatelessMethodParts): StatelessEraMethod {
  return {
    method: StatelessMethod.Discover,
    era: 'stateless',
    kind: 'protocol',
    serve: async (_params, { meta }) => {
      const extensions = advertised?.({ era: 'stateless', protocolVersion: meta.protocolVersion, clientCapabilities: meta.clientCapabilities ?? {} });
      const result: JsonObject = {
        resultType: 'complete',
        supportedVersions: [...STATELESS_VERSIONS],
        capabilities: statelessCapabilities(counts(), extensions),
        ttlMs: results.discoverHint.ttlMs,
        cacheScope: results.discoverHint.scope,
        _meta: results.meta(),
      };
      if (identity.instructions !== undefined) result.instructions = identity.instructions;
      return result;
    },
  };
}

/**
 * `subscriptions/listen`, a long-lived stream: acknowledged first, then only what the filter asks
 * for, every message tagged with the subscription id (the request id). Ends when the client goes
 * away (no response) or the server closes it (a graceful closing response): the server's hub
 * ending every stream, or a closing transport cancelling its own with a `ServerClosingError`.
 * Through the operation pipeline: its guards may refuse the stream, its interceptors see it whole.
 */
function listen(parts: StatelessMethodParts): StatelessEraMethod {
  const { counts, listeners, results, maxListenStreams } = parts;
  return {
    method: StatelessMethod.Listen,
    era: 'stateless',
    kind: 'subscription',
    answersWhenCancelled: true,
    admit: (request) => listenRefusal(request, parts),
    serve: async (_params, { message, meta, principal, exchange, cancellation }) => {
      // Checked where the stream is added, with nothing awaited in between: the cap cannot be overrun.
      if (listeners.size >= maxListenStreams) {
        throw new ProtocolError(ErrorCode.TooManyRequests, `Too many listen streams: this server holds at most ${maxListenStreams}; retry later`, { maxListenStreams });
      }
      const filter = agreedFilter(message.params?.notifications as JsonObject, counts(), extensionIdsNow(message.params?.notifications as JsonObject, meta, parts));
      const tag = { [MetaKey.subscriptionId]: message.id };
      const deliver = (method: string, params: JsonObject) => {
        if (exchange.open) exchange.send(notification(method, { ...params, _meta: tag }));
      };
      deliver(ACKNOWLEDGED, { notifications: filterAsSent(filter) });
      const closedByServer = await new Promise<boolean>((resolve) => {
        const remove = listeners.add(filter, principal, deliver, () => resolve(true));
        cancellation.onCancel(() => { remove(); resolve(isServerClosing(cancellation.reason)); });
      });
      return closedByServer ? { resultType: 'complete', _meta: { ...results.meta(), ...tag } } : undefined;
    },
  };
}

/** Why a listen request is refused as such: a filter that is no object, task ids it may not ask for, a filter too large. */
function listenRefusal({ message, meta }: StatelessRequest, { listenIds, maxSubscriptionsPerStream }: StatelessMethodParts): Refusal | undefined {
  const asked = message.params?.notifications;
  if (typeof asked !== 'object' || asked === null || Array.isArray(asked)) {
    return { kind: 'invalid-params', error: { code: ErrorCode.InvalidParams, message: '"notifications" must be an object' } };
  }
  let ids: Record<string, string[]> | undefined;
  try {
    // The keys extensions add, where they serve this request: checked before their size.
    ids = listenIds?.(asked as JsonObject, negotiationOf(meta));
  } catch (error) {
    return refusalOf(error);
  }
  const keyed = Object.keys(ids ?? {}).map((key) => [(asked as JsonObject)[key], `"${key}"`] as const);
  // A stream holds its filter for as long as it is open: nothing in it may grow without bound.
  for (const [asks, what] of [[(asked as JsonObject).resourceSubscriptions, 'resource subscriptions'] as const, ...keyed]) {
    if (Array.isArray(asks) && asks.length > maxSubscriptionsPerStream) {
      return {
        kind: 'invalid-params',
        error: {
          code: ErrorCode.InvalidParams,
          message: `Too many ${what}: a listen stream may ask for at most ${maxSubscriptionsPerStream}`,
          data: { maxSubscriptionsPerSession: maxSubscriptionsPerStream },
        },
      };
    }
  }
  return undefined;
}

/** Which filter flag needs which kind of thing registered. */
const FLAG_NEEDS = Object.freeze({ toolsListChanged: 'tools', promptsListChanged: 'prompts', resourcesListChanged: 'resources' } as const);

/** Who a listen request negotiated with, as an extension sees it. */
function negotiationOf(meta: StatelessRequest['meta']): Negotiation {
  return { era: 'stateless', protocolVersion: meta.protocolVersion, clientCapabilities: meta.clientCapabilities ?? {} };
}

/** The extensions' ids as the stream opens: what the server serves may have changed since the request was checked (a key it no longer takes is left out). */
function extensionIdsNow(asked: JsonObject, meta: StatelessRequest['meta'], { listenIds }: StatelessMethodParts): Record<string, string[]> | undefined {
  try {
    return listenIds?.(asked, negotiationOf(meta));
  } catch {
    return undefined;
  }
}

/** The subset of a requested filter this server honours: only types it advertises (the revision omits the rest), and the extensions' ids. */
function agreedFilter(asked: JsonObject, counts: FeatureCounts, extensionIds: Record<string, string[]> | undefined): ListenFilter {
  const filter: { -readonly [K in keyof ListenFilter]: ListenFilter[K] } = {};
  for (const [flag, kind] of Object.entries(FLAG_NEEDS) as [keyof typeof FLAG_NEEDS, keyof FeatureCounts][]) {
    if (asked[flag] === true && counts[kind] > 0) filter[flag] = true;
  }
  if (Array.isArray(asked.resourceSubscriptions) && counts.resources > 0) {
    filter.resourceSubscriptions = [...new Set(asked.resourceSubscriptions.filter((u): u is string => typeof u === 'string'))];
  }
  if (extensionIds) filter.extensionIds = extensionIds;
  return filter;
}
