import type { ClientCapabilities, Implementation, LoggingLevel } from '../../core/wire.types';

/**
 * Everything the server remembers about one session. Plain data only (no functions, no sockets),
 * so a store can keep it anywhere: memory now, Redis when the server runs as several replicas.
 */
export interface SessionState {
  readonly id: string;
  readonly protocolVersion: string;
  readonly clientInfo?: Implementation;
  readonly clientCapabilities: ClientCapabilities;
  /** Set by `notifications/initialized`. */
  initialized: boolean;
  /** The least severe level the client wants logged (`logging/setLevel`). */
  logLevel?: LoggingLevel;
  /** URIs the client subscribed to with `resources/subscribe`. */
  subscriptions: string[];
  /** What the authentication hook attached when the session was created. */
  readonly principal?: unknown;
  readonly createdAt: number;
  lastActiveAt: number;
}
