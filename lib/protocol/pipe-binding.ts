import { uniqueId } from '../core/unique-id';
import type { Era } from './era';

/**
 * What a pipe (stdio, in-memory) keeps between its messages: one connection carries one client,
 * whose first request pins the era for good, and, in the session era, one implicit session.
 * The dispatcher reads and sets it; the pipe only holds it.
 */
export class PipeBinding {
  /** Set by the first request: `initialize` pins the session era, a request with `_meta` the stateless one. */
  era?: Era;
  /** The pipe's session, once `initialize` made it (loaded per message: updates replace it in the store). */
  sessionId?: string;
  /** The scope of the connection's stateless-era requests, for `notifications/cancelled` and the in-flight cap. */
  readonly scope = `pipe-${uniqueId()}`;
}
