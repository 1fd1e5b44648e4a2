import type { IncomingHttpHeaders } from 'node:http';

/**
 * The shapes of the HTTP authentication hook (`HttpOptions.authenticate`, and what
 * `oauthResourceServer` returns as its `authenticate`), spelled once in core/ so that the HTTP
 * transports and lib/auth share them without importing each other.
 */

/** What the hook sees of each HTTP request. */
export interface AuthRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
}

/**
 * The verdict on one request: let it in with a principal (the handler sees it as `ctx.principal`),
 * or refuse it with 401 and a `WWW-Authenticate` challenge, 403 (with a challenge when scopes are
 * missing: RFC 6750 `insufficient_scope`), or 503 with `Retry-After` while what checks the
 * credentials (the authorization server) is unreachable. The principal must be plain data (JSON
 * values: e.g. `{ sub: 'user-42', roles: ['admin'] }`): sessions and `requestState`s are bound to
 * it (to an `AuthInfo`'s issuer and subject). Anything else is refused with 500.
 */
export type AuthDecision =
  | { readonly allow: true; readonly principal?: unknown }
  | { readonly allow: false; readonly status: 401; readonly wwwAuthenticate: string; readonly message?: string }
  | { readonly allow: false; readonly status: 403; readonly wwwAuthenticate?: string; readonly message?: string }
  | { readonly allow: false; readonly status: 503; readonly retryAfterSec: number; readonly message?: string };

/** The authentication hook: its decision for one request, at once or later. */
export type Authenticate = (request: AuthRequest) => AuthDecision | Promise<AuthDecision>;
