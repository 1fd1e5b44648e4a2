import type { AuthInfo } from '../core/auth-info';
import { TokenRejectedError } from './token-errors';

/** Reads the scopes a token grants from its claims (default: `scope`, else `scp`; see `scopesFromClaims`). */
export type ScopesOf = (claims: Readonly<Record<string, unknown>>) => readonly string[];

/**
 * The default `ScopesOf`: the `scope` claim (a space-separated string: RFC 9068, RFC 7662), else
 * `scp` (a string or an array of strings: Entra ID, Okta).
 */
export const scopesFromClaims: ScopesOf = (claims) => {
  const value = claims.scope ?? claims.scp;
  if (typeof value === 'string') return value.split(' ').filter((scope) => scope !== '');
  return Array.isArray(value) ? value.filter((scope): scope is string => typeof scope === 'string') : [];
};

/**
 * The principal for verified claims (a JWT's payload, or an introspection answer): the subject is
 * `sub`, else the client the token was issued to (a client-credentials token may have no `sub`);
 * a token that names neither is refused.
 */
export function authInfoOf(claims: Readonly<Record<string, unknown>>, issuer: string, scopesOf: ScopesOf): AuthInfo {
  const clientId = stringOf(claims.client_id) ?? stringOf(claims.azp);
  const subject = stringOf(claims.sub) ?? clientId;
  if (subject === undefined) throw new TokenRejectedError('The access token names no subject', 'neither sub nor client_id');
  const expiresAt = typeof claims.exp === 'number' && Number.isFinite(claims.exp) ? claims.exp : undefined;
  return Object.freeze({
    subject,
    ...(clientId === undefined ? {} : { clientId }),
    scopes: Object.freeze([...new Set(scopesOf(claims))]),
    issuer,
    audience: Object.freeze(audiencesOf(claims.aud)),
    ...(expiresAt === undefined ? {} : { expiresAt }),
    claims: Object.freeze({ ...claims }),
  });
}

/** The `aud` claim as a list: a string, or an array whose strings count. */
export function audiencesOf(aud: unknown): string[] {
  if (typeof aud === 'string') return [aud];
  return Array.isArray(aud) ? aud.filter((item): item is string => typeof item === 'string') : [];
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
