import { isAuthInfo, principalIdentity, sameAuthIdentity } from '../core/auth-info';
import { canonicalJson } from '../core/canonical-json';

/**
 * Principals (what the authentication hook attaches) are compared across requests: a session, and
 * a `requestState`, answer only the principal they were made for. They must therefore be plain
 * data, whose JSON form says everything about them. A Map or a class instance with private state
 * would serialise to `{}` and make different users look alike, so it is refused (fail closed).
 */
export function isPlainData(value: unknown, depth = 0): boolean {
  if (depth > 32) return false;
  if (value === null || value === undefined) return true;
  const type = typeof value;
  if (type === 'string' || type === 'boolean') return true;
  if (type === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every((item) => isPlainData(item, depth + 1));
  if (type !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return false;
  return Object.values(value as Record<string, unknown>).every((item) => isPlainData(item, depth + 1));
}

/**
 * Whether two principals are the same one: their identities (`principalIdentity`: an `AuthInfo`'s
 * issuer and subject, so a refreshed token of the same subject is the same principal; any other
 * principal whole), compared by their canonical JSON form (the one `requestState` binds to), so
 * keys that come back in another order change nothing.
 */
export function samePrincipal(owner: unknown, caller: unknown): boolean {
  if (owner === caller) return true;
  if (isAuthInfo(owner) && isAuthInfo(caller)) return sameAuthIdentity(owner, caller);
  return identityKey(owner) === identityKey(caller);
}

/** The canonical JSON form of a principal's identity: what sessions, `requestState`s, tasks and per-principal limits compare. */
export function identityKey(principal: unknown): string {
  return canonicalJson(principalIdentity(principal) ?? null, 'the principal is');
}
