import type { Method, Notification } from '../core/methods';
import type { JsonObject, LoggingLevel } from '../core/wire.types';
import { PhantomError } from '../core/errors';

/** Options of one server-to-client request. */
export interface ChannelRequestOptions {
  readonly signal: AbortSignal;
  readonly timeoutMs?: number;
  /** Stateless era: the name of this input request in `inputRequests` (default: generated). */
  readonly key?: string;
}

/**
 * The way back to the client that a handler's context talks through. The protocol layer supplies
 * one per request (it knows the session, the era and the stream); the router never sees it.
 */
export interface ClientChannel {
  /** Sends a notification tied to the current request. */
  notify(method: Notification, params: JsonObject): Promise<void>;
  /** Sends a request to the client and resolves with its result, or rejects. */
  request(method: Method, params: JsonObject, options: ChannelRequestOptions): Promise<JsonObject>;
  /** Tells subscribers of `uri` that it changed. */
  resourceUpdated(uri: string): Promise<void>;
  /** Ends the connection carrying this request's stream, inviting the client to reconnect and resume. */
  closeStream?(): Promise<void>;
  /** The least severe level the client wants; everything when undefined, nothing when `'off'`. */
  readonly logLevel?: LoggingLevel | 'off';
  /** The error that reports capabilities the client did not declare, in this era's terms. */
  missingCapabilities?(names: readonly string[]): Error;
}

function notConnected(): never {
  throw new PhantomError('not_connected', 'This context is not connected to a client: server-to-client messages need a transport');
}

/** The channel of a context created outside any transport (in-process dispatch, tests). */
export const DISCONNECTED_CHANNEL: ClientChannel = Object.freeze({
  notify: async () => notConnected(),
  request: async () => notConnected(),
  resourceUpdated: async () => notConnected(),
});
