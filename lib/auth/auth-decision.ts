import type { IncomingHttpHeaders } from 'node:http';

/**
 * The shapes of the HTTP authentication hook, spelled here so that lib/auth depends on no
 * transport. They match the hook's (`HttpOptions.authenticate`) member for member, with two
 * additions the transport is to learn when the resource server is wired in: a 403 may carry its
 * `WWW-Authenticate` challenge (RFC 6750 `insufficient_scope`), and a 503 says the authorization
 * server could not be reached, so the token could not be checked (with `Retry-After`).
 */

/** What the hook sees of each HTTP request. */
export interface AuthRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
}

/**
 * The verdict on one request: let it in with a principal (plain data), or refuse it with 401 and a
 * challenge, 403 (with a challenge when scopes are missing), or 503 while the authorization
 * server is unreachable.
 */
export type AuthDecision =
  | { readonly allow: true; readonly principal?: unknown }
  | { readonly allow: false; readonly status: 401; readonly wwwAuthenticate: string; readonly message?: string }
  | { readonly allow: false; readonly status: 403; readonly wwwAuthenticate?: string; readonly message?: string }
  | { readonly allow: false; readonly status: 503; readonly retryAfterSec: number; readonly message?: string };

export type Authenticate = (request: AuthRequest) => AuthDecision | Promise<AuthDecision>;
