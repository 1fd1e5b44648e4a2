import type { AuthInfo } from '../core/auth-info';
import { audiencesOf, authInfoOf, type ScopesOf } from './auth-info.mapper';
import { isJsonObject, requestJson, type AuthorizationServerHttp } from './authorization-server.http';
import { AuthorizationServerUnavailableError, TokenRejectedError } from './token-errors';

/** How to reach the authorization server's introspection endpoint (RFC 7662), as a confidential client. */
export interface IntrospectionOptions {
  readonly endpoint: string;
  readonly clientId: string;
  readonly clientSecret: string;
}

/** What an introspection answer is checked against. */
export interface IntrospectionChecks {
  readonly issuer: string;
  readonly audience: string;
  readonly clockToleranceSec: number;
  readonly retryAfterMs: number;
  readonly now: () => number;
  readonly scopesOf: ScopesOf;
}

/**
 * Asks the authorization server about an opaque token (RFC 7662), authenticating with HTTP Basic
 * (`client_secret_basic`, the method every server supports). An inactive token, one of another
 * issuer, one whose `aud` does not name this resource (or names nothing: RFC 8707, no token
 * passthrough) and one past its `exp` are refused; no answer, or an answer that is not one, means
 * the server is unavailable.
 */
export async function introspect(http: AuthorizationServerHttp, options: IntrospectionOptions, token: string, checks: IntrospectionChecks): Promise<AuthInfo> {
  const credentials = Buffer.from(`${formEncode(options.clientId)}:${formEncode(options.clientSecret)}`).toString('base64');
  let answer;
  try {
    answer = await requestJson(http, options.endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${credentials}` },
      body: new URLSearchParams({ token, token_type_hint: 'access_token' }).toString(),
    });
  } catch (cause) {
    throw unavailable(`the introspection endpoint could not be reached: ${cause instanceof Error ? cause.message : String(cause)}`, checks, cause);
  }
  const { status, body } = answer;
  if (status !== 200 || !isJsonObject(body) || typeof body.active !== 'boolean') {
    const hint = status === 401 ? ' (check introspection.clientId and clientSecret)' : '';
    throw unavailable(`the introspection endpoint answered HTTP ${status}${status === 200 ? ' without a boolean "active"' : ''}${hint}`, checks);
  }
  if (!body.active) throw new TokenRejectedError('The access token is not active', 'introspection: active false');
  if (body.iss !== undefined && body.iss !== checks.issuer) throw new TokenRejectedError('The access token was not issued by the expected authorization server', 'introspection: iss');
  if (!audiencesOf(body.aud).includes(checks.audience)) throw new TokenRejectedError('The access token was not issued for this resource', 'introspection: aud');
  if (typeof body.exp === 'number' && body.exp + checks.clockToleranceSec <= checks.now() / 1000) throw new TokenRejectedError('The access token expired', 'introspection: exp');
  if (typeof body.iat === 'number' && body.iat > checks.now() / 1000 + checks.clockToleranceSec) throw new TokenRejectedError('The access token was issued in the future', 'introspection: iat');
  return authInfoOf(body, checks.issuer, checks.scopesOf);
}

/** RFC 6749 section 2.3.1: the client id and secret are form-encoded before they are joined. */
function formEncode(value: string): string {
  return encodeURIComponent(value).replace(/%20/g, '+');
}

function unavailable(message: string, checks: IntrospectionChecks, cause?: unknown): AuthorizationServerUnavailableError {
  return new AuthorizationServerUnavailableError(message, checks.retryAfterMs, { cause });
}
