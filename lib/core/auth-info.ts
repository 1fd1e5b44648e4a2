/**
 * Who a verified bearer token speaks for: the principal `oauthResourceServer` attaches to a request,
 * which handlers read as `ctx.auth` and the scope checks read for `scopes`. It is plain data (JSON
 * values only), as every principal must be: sessions and `requestState`s are bound to it by value.
 *
 * @example
 * @Tool({ description: 'My notes', scopes: ['notes:read'] })
 * mine(_: unknown, ctx: Context) {
 *   return this.notes.ownedBy(ctx.auth!.subject);
 * }
 */
export interface AuthInfo {
  /** The token's `sub`; for a client-credentials token without one, the client it was issued to. */
  readonly subject: string;
  /** The OAuth client the token was issued to (`client_id`, or `azp`), when the token says. */
  readonly clientId?: string;
  /** The scopes granted (the `scope` claim, or `scp`), each once. */
  readonly scopes: readonly string[];
  /** The authorization server that issued the token (`iss`, checked against the configured issuer). */
  readonly issuer: string;
  /** The token's audiences (`aud`); this resource's identifier is one of them. */
  readonly audience: readonly string[];
  /** When the token expires, in seconds since the epoch (`exp`), when it says. */
  readonly expiresAt?: number;
  /** Every claim of the token (or of the introspection answer), as sent. */
  readonly claims: Readonly<Record<string, unknown>>;
}

/** Whether `value` has the shape of an `AuthInfo` (what `ctx.auth` checks before it answers). */
export function isAuthInfo(value: unknown): value is AuthInfo {
  if (typeof value !== 'object' || value === null) return false;
  const info = value as Record<string, unknown>;
  return typeof info.subject === 'string' && typeof info.issuer === 'string'
    && isStringArray(info.scopes) && isStringArray(info.audience)
    && typeof info.claims === 'object' && info.claims !== null;
}

/**
 * The scopes a principal was granted: its `scopes` when it has an array of strings there (an
 * `AuthInfo`, or the principal of a custom `authenticate` hook that grants scopes, such as
 * `{ subject: 'ci-bot', scopes: ['notes:read'] }`); none otherwise.
 */
export function grantedScopes(principal: unknown): readonly string[] {
  const scopes = (principal as { scopes?: unknown } | null | undefined)?.scopes;
  return isStringArray(scopes) ? scopes : NONE;
}

/** The scopes of `required` that `principal` was not granted, in the order required. */
export function missingScopes(principal: unknown, required: readonly string[]): string[] {
  if (required.length === 0) return [];
  const granted = grantedScopes(principal);
  return required.filter((scope) => !granted.includes(scope));
}

/**
 * What identifies a principal across its tokens: for an `AuthInfo`, its issuer and subject (a
 * refreshed token changes `exp`, `jti` and `iat`, not who it speaks for); any other principal as
 * it is. The seam for binding sessions and `requestState`s to the subject rather than to one token.
 */
export function principalIdentity(principal: unknown): unknown {
  if (!isAuthInfo(principal)) return principal;
  return namesUser(principal) ? { issuer: principal.issuer, subject: principal.subject } : { issuer: principal.issuer, client: principal.subject };
}

/** Whether two `AuthInfo`s speak for the same principal: `principalIdentity` without building it (every request of a session asks). */
export function sameAuthIdentity(a: AuthInfo, b: AuthInfo): boolean {
  return a.issuer === b.issuer && a.subject === b.subject && namesUser(a) === namesUser(b);
}

/**
 * A subject taken from `client_id` (a token without `sub`) names a client, not a user: a client
 * whose id equals some user's `sub` must not pass for that user.
 */
function namesUser(info: AuthInfo): boolean {
  return typeof (info.claims as { sub?: unknown }).sub === 'string';
}

/**
 * Scope tokens as RFC 6749 (section 3.3) spells them: printable ASCII without space, `"` or `\`,
 * so they can go in a `scope="..."` challenge unescaped.
 */
export const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

const NONE: readonly string[] = Object.freeze([]);

function isStringArray(value: unknown): value is readonly string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}
