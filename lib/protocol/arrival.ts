import type { RequestId } from '../core/jsonrpc';
import type { Way } from './exchange';
import type { PipeBinding } from './pipe-binding';
import type { AdmittedBatch } from './session-era/batch';
import type { HeaderCheck } from './stateless-era/stateless-era';

/** What a transport opens a way for: a session's request, a batch, a stateless request, a listen stream. */
export type CallKind = 'request' | 'batch' | 'stateless' | 'listen';

/** The way of a batch, told once the batch's elements are admitted (so closing can give up on them). */
export interface BatchWay extends Way {
  admitted?(batch: AdmittedBatch): void;
}

/**
 * What a transport knows about one incoming message, handed to the dispatcher with it. The
 * dispatcher asks for the way back only when it admits a request, so a transport registers its
 * call right there, with no wait between its closing check and the registration.
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
   * Opens the way back for a request (or a batch) being admitted now, registered with the
   * transport's running calls; `undefined` when the transport is closing (the request is refused).
   */
  open(kind: CallKind, sessionId: string | undefined, id: RequestId | null): BatchWay | undefined;
}
