import type { Classified } from '../core/jsonrpc';
import { Method } from '../core/methods';
import { carriesRequestMeta } from './stateless-era/request-meta';
import { isSessionEraVersion } from './versions';

/** The two shapes of MCP one endpoint serves (see docs/concepts/eras.md). */
export type Era = 'session' | 'stateless';

/** What era detection looks at: the message, and what its transport knows around it. */
export interface EraSignals {
  /** The message as classified, or `'batch'` for a JSON-RPC batch (only sessions take batches). */
  readonly message: Classified | 'batch';
  /** Which transport it came on: a pipe is one connection, whose first request pins its era. */
  readonly connection: 'pipe' | 'http';
  /** A session id is named: HTTP's `Mcp-Session-Id`, or the pipe's own session. */
  readonly sessionNamed: boolean;
  /** HTTP's `MCP-Protocol-Version`, when sent. */
  readonly versionHeader?: string;
  /** The era a pipe already pinned. */
  readonly pinned?: Era;
}

/**
 * Which era a message speaks; the one place that decides it, for every transport. A pinned era
 * stays; a named session is the session era; otherwise a version header the session era does not
 * know, or a protocol version in the message's `_meta`, is the stateless era. On a pipe that has
 * not pinned an era yet, `initialize` starts a session whatever its `_meta` says.
 */
export function detectEra(signals: EraSignals): Era {
  if (signals.pinned !== undefined) return signals.pinned;
  if (signals.sessionNamed) return 'session';
  const { message } = signals;
  if (message === 'batch') return 'session';
  if (speaksStatelessVersion(signals.versionHeader)) return 'stateless';
  if (message.kind !== 'request' && message.kind !== 'notification') return 'session';
  if (signals.connection === 'pipe' && message.kind === 'request' && message.message.method === Method.Initialize) return 'session';
  return carriesRequestMeta(message.message.params) ? 'stateless' : 'session';
}

/** Whether a version header names a revision of the stateless era (any the session era does not know). */
export function speaksStatelessVersion(versionHeader: string | undefined): boolean {
  return versionHeader !== undefined && !isSessionEraVersion(versionHeader.trim());
}
