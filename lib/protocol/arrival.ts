import type { RequestId } from '../core/jsonrpc';
import type { InFlight } from './in-flight';
import type { PipeBinding } from './pipe-binding';
import type { HeaderCheck } from './stateless-era/stateless-era';

/** What a transport opens a request's way back for: a session's request, a batch, a stateless request, a listen stream. */
export type InFlightKind = 'request' | 'batch' | 'stateless' | 'listen';

/**
 * What a transport knows about one incoming message, handed to the dispatcher with it. The
 * dispatcher asks for the way back only when it admits a request, so a transport registers its
 * request in flight right there, with no wait between its closing check and the registration.
 */
export interface Arrival {
  /** What the authentication hook attached (HTTP), or what the pipe was connected with. */
  readonly principal: unknown;
  /** The session the message names (HTTP's `Mcp-Session-Id`); a pipe's own is in `binding`. */
  readonly sessionId?: string;
  /** HTTP's `MCP-Protocol-Version`, when sent. */
  readonly versionHeader?: string;
  /** A pipe: its pinned era and implicit session, kept between messages. */
  readonly binding?: PipeBinding;
  /** False once the transport is closing: no new request is taken. */
  readonly accepting: boolean;
  /** HTTP, stateless era: the mirrored headers against the body and the tool's input schema (called on the arrival). */
  readonly checkHeaders?: HeaderCheck;
  /**
   * Opens the way back for a request (or a batch) being admitted now, registered right away
   * with what the transport has in flight; `undefined` when the transport is closing (the request is refused).
   */
  open(kind: InFlightKind, sessionId: string | undefined, id: RequestId | null): InFlight | undefined;
}
