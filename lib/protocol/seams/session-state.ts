import type { ClientCapabilities, Implementation, LoggingLevel } from '../../core/wire.types';

/**
 * Everything the server remembers about one session. Plain data only (no functions, no sockets),
 * so a store can keep it anywhere: memory now, Redis when the server runs as several replicas.
 * Changed only through `SessionStore.update`; `lastActiveAt` is the store's own (`touch`).
 */
export interface SessionState {
  readonly id: string;
  readonly protocolVersion: string;
  readonly clientInfo?: Implementation;
  readonly clientCapabilities: ClientCapabilities;
  /** Set by `notifications/initialized`. */
  readonly initialized: boolean;
  /** The least severe level the client wants logged (`logging/setLevel`). */
  readonly logLevel?: LoggingLevel;
  /** URIs the client subscribed to with `resources/subscribe`. */
  readonly subscriptions: readonly string[];
  /** What the authentication hook attached when the session was created. */
  readonly principal?: unknown;
  readonly createdAt: number;
  lastActiveAt: number;
}
