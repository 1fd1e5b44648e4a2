import { identityKey } from '../principal';

/**
 * Who a task belongs to: the principal when the request has one (a refreshed token of the same
 * subject is the same owner, in any session), else the session that created it, else anyone who
 * holds its id (no authentication and no session: the id, 128 random bits, is the only key).
 */
export function taskOwner(principal: unknown, sessionId: string | undefined): string {
  if (principal !== undefined && principal !== null) return `principal:${identityKey(principal)}`;
  return sessionId === undefined ? 'anyone' : `session:${sessionId}`;
}
