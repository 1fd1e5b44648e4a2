import { missingScopes, type AuthInfo } from '../core/auth-info';
import { definedOnly } from '../core/defined-only';
import { STDERR_DIAGNOSTICS } from '../core/diagnostics';
import type { AuthDecision, AuthRequest } from '../core/auth-decision';
import { scopesFromClaims } from './auth-info.mapper';
import { discoverAuthorizationServer, type AuthorizationServerMetadata } from './authorization-server-discovery';
import type { AuthorizationServerHttp } from './authorization-server.http';
import { bearerChallenge } from './bearer-challenge';
import { JwksCache } from './jwks-cache';
import { verifyJwt, type JwtChecks } from './jwt-verifier';
import { protectedResourceMetadata, protectedResourceMetadataUrl, type ProtectedResourceMetadata } from './protected-resource-metadata';
import { checkResourceServerOptions, DEFAULT_ALGORITHMS, RESOURCE_SERVER_DEFAULTS, type OAuthResourceServerOptions } from './resource-server-options';
import { RetriedLoad } from './retried-load';
import { TokenCache } from './token-cache';
import { AuthorizationServerUnavailableError, TokenRejectedError } from './token-errors';
import { introspect, type IntrospectionChecks } from './token-introspector';

/** The `WWW-Authenticate` values of this resource, each naming its metadata URL. */
export interface ResourceChallenges {
  /**
   * No token was sent: the client learns where to get one (no `error`, RFC 6750 section 3.1) and,
   * with `scopes`, which scopes to ask for.
   */
  missingToken(scopes?: readonly string[]): string;
  /** The token was refused; `scopes`: those to ask for in a new one. */
  invalidToken(description?: string, scopes?: readonly string[]): string;
  /** The token lacks scopes: `scopes` are those the request needs (the client asks for them, a step-up). */
  insufficientScope(scopes: readonly string[], description?: string): string;
}

/**
 * An OAuth 2.1 resource server: verifies bearer tokens of one authorization server for one
 * resource, and says how clients get them. Made by `oauthResourceServer`.
 */
export interface OAuthResourceServer {
  /**
   * The HTTP authentication hook: the decision for a request from its `Authorization: Bearer`
   * header (a token anywhere else is ignored). Allowed requests carry an `AuthInfo` as principal.
   * Refusals: no token, 401 with a challenge without `error`; a refused token, 401
   * `error="invalid_token"`; `requiredScopes` missing, 403 `error="insufficient_scope"` naming them;
   * the authorization server unreachable (no keys yet, an unknown key, introspection), 503 with
   * `Retry-After`, because nothing is known against the token. It never rejects, and answers
   * within the configured timeout. The 401 challenges name the scopes to ask for: `challengeScopes`
   * when set, else `requiredScopes` and those `scopesNeeded` returns (what every operation of the
   * server needs: the HTTP transports pass it; it is called only for a 401).
   */
  authenticate(request: AuthRequest, scopesNeeded?: () => readonly string[]): AuthDecision | Promise<AuthDecision>;
  /** Verifies one token: its `AuthInfo`, or a `TokenRejectedError` / `AuthorizationServerUnavailableError`. */
  verify(token: string): Promise<AuthInfo>;
  /**
   * The protected-resource metadata document (RFC 9728) to serve at `resourceMetadataUrl`, for
   * `resource` (default: the configured one), advertising the configured scopes and `scopes`
   * (those the decorators declare).
   */
  metadata(resource?: string, scopes?: readonly string[]): ProtectedResourceMetadata;
  /** Where the metadata document is to be served; the URL every challenge names. */
  readonly resourceMetadataUrl: string;
  readonly challenges: ResourceChallenges;
  /** The 403 for a call that needs `scopes` the token lacks (what a scope guard's refusal becomes over HTTP). */
  insufficientScope(scopes: readonly string[]): AuthDecision;
}

/** `Bearer`, case-insensitive, then RFC 6750's b64token. */
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;
const BEARER_SCHEME = /^Bearer(?: |$)/i;
/** A JWS in compact form: three base64url parts (the last empty for `alg: none`, which is then refused). */
const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/**
 * An OAuth 2.1 resource server for the MCP authorization spec: JWT access tokens verified
 * locally with the issuer's published keys (discovered from its metadata), opaque tokens through
 * introspection when configured, each verified token remembered until it expires.
 *
 * @example
 * const auth = oauthResourceServer({ issuer: 'https://tenant.auth0.com/', audience: 'https://notes.example.com/mcp' });
 * await server.listen({ port: 3000, auth });
 */
export function oauthResourceServer(options: OAuthResourceServerOptions): OAuthResourceServer {
  checkResourceServerOptions(options);
  const settings = { ...RESOURCE_SERVER_DEFAULTS, ...definedOnly(options) };
  const now = options.now ?? Date.now;
  const diagnostics = options.diagnostics ?? STDERR_DIAGNOSTICS;
  const http: AuthorizationServerHttp = { fetch: options.fetch ?? fetch, timeoutMs: settings.timeoutMs, maxBytes: settings.maxDocumentBytes };
  const retryAfterMs = settings.retryAfterSec * 1000;
  const report = (error: AuthorizationServerUnavailableError) => diagnostics.error(`oauthResourceServer: ${error.message}`);
  const requiredScopes = Object.freeze([...(options.requiredScopes ?? [])]);
  const resource = options.resource ?? options.audience;
  const resourceMetadataUrl = options.resourceMetadataUrl ?? protectedResourceMetadataUrl(resource);
  const scopesOf = options.scopesOf ?? scopesFromClaims;

  const metadata = new RetriedLoad<AuthorizationServerMetadata>(() => discoverAuthorizationServer(http, options.issuer), `the metadata of ${options.issuer}`, retryAfterMs);
  const jwksUri = options.jwksUri;
  const jwks = new JwksCache(http, async () => jwksUri ?? jwksUriOf(await metadata.get(), options.issuer), {
    cooldownMs: settings.jwksCooldownSec * 1000, maxAgeMs: settings.jwksMaxAgeSec * 1000, retryAfterMs, now,
  }, report);
  const jwtChecks: JwtChecks = {
    issuer: options.issuer, audience: options.audience, algorithms: options.algorithms ?? DEFAULT_ALGORITHMS,
    clockToleranceSec: settings.clockToleranceSec, now, scopesOf,
  };
  const introspectionChecks: IntrospectionChecks = {
    issuer: options.issuer, audience: options.audience, clockToleranceSec: settings.clockToleranceSec, retryAfterMs, now, scopesOf,
  };
  const introspectionGate = new OutageGate(retryAfterMs, now, report);
  const cache = new TokenCache<AuthDecision>(settings.cacheMaxEntries, now);

  const challenges: ResourceChallenges = Object.freeze({
    missingToken: (scopes?: readonly string[]) => bearerChallenge({ resourceMetadata: resourceMetadataUrl, scopes }),
    invalidToken: (description?: string, scopes?: readonly string[]) => bearerChallenge({
      resourceMetadata: resourceMetadataUrl, error: 'invalid_token', errorDescription: description, scopes,
    }),
    insufficientScope: (scopes: readonly string[], description?: string) => bearerChallenge({
      resourceMetadata: resourceMetadataUrl, error: 'insufficient_scope', scopes, errorDescription: description,
    }),
  });
  const challengeScopes = options.challengeScopes && Object.freeze([...new Set(options.challengeScopes)]);
  /** The scopes a 401 names: the configured ones, else those every request and every operation needs. */
  const scopesToAsk = (scopesNeeded?: () => readonly string[]): readonly string[] =>
    challengeScopes ?? (scopesNeeded ? [...new Set([...requiredScopes, ...scopesNeeded()])] : requiredScopes);
  // The answer to a request without a token, the most common refusal, made again only when the scopes change.
  let missing: { readonly key: string; readonly decision: AuthDecision } | undefined;
  const missingToken = (scopesNeeded?: () => readonly string[]): AuthDecision => {
    const scopes = scopesToAsk(scopesNeeded);
    const key = scopes.join(' ');
    if (missing?.key !== key) {
      missing = { key, decision: Object.freeze({ allow: false, status: 401, wwwAuthenticate: challenges.missingToken(scopes), message: 'A bearer token is required' }) };
    }
    return missing.decision;
  };
  const insufficientScope = (scopes: readonly string[]): AuthDecision => Object.freeze({
    allow: false, status: 403, wwwAuthenticate: challenges.insufficientScope(scopes), message: `The access token lacks the scopes ${scopes.join(', ')}`,
  });
  const rejected = (description: string, scopesNeeded?: () => readonly string[]): AuthDecision => Object.freeze({
    allow: false, status: 401, wwwAuthenticate: challenges.invalidToken(description, scopesToAsk(scopesNeeded)), message: description,
  });

  async function verify(token: string): Promise<AuthInfo> {
    if (token.length > settings.maxTokenLength) throw new TokenRejectedError('The access token is too long', `longer than ${settings.maxTokenLength}`);
    if (COMPACT_JWS.test(token)) return verifyJwt(token, jwks.key, jwtChecks);
    const introspection = options.introspection;
    if (!introspection) throw new TokenRejectedError('The access token is not a JWT', 'opaque token, no introspection configured');
    return introspectionGate.run(() => introspect(http, introspection, token, introspectionChecks));
  }

  function decide(info: AuthInfo): AuthDecision {
    return missingScopes(info, requiredScopes).length > 0 ? insufficientScope(requiredScopes) : Object.freeze({ allow: true, principal: info });
  }

  /** Until when a verification holds: a JWT's until it expires; an introspected token may be revoked, so its answer only for a while. */
  function cacheUntil(token: string, info: AuthInfo): number {
    const expiresAt = info.expiresAt === undefined ? Infinity : info.expiresAt * 1000;
    return COMPACT_JWS.test(token) ? expiresAt : Math.min(expiresAt, now() + settings.introspectionCacheTtlSec * 1000);
  }

  async function verified(token: string, key: string, scopesNeeded?: () => readonly string[]): Promise<AuthDecision> {
    try {
      const info = await verify(token);
      const decision = decide(info);
      cache.set(key, decision, cacheUntil(token, info));
      return decision;
    } catch (error) {
      if (error instanceof TokenRejectedError) return rejected(error.description, scopesNeeded);
      if (error instanceof AuthorizationServerUnavailableError) {
        return Object.freeze({
          allow: false, status: 503, retryAfterSec: Math.max(1, Math.ceil(error.retryAfterMs / 1000)),
          message: 'The authorization server cannot be reached to check the access token; retry later',
        });
      }
      diagnostics.error('oauthResourceServer: verifying a token failed unexpectedly; it is refused', error);
      return rejected('The access token could not be verified', scopesNeeded);
    }
  }

  return Object.freeze({
    authenticate(request: AuthRequest, scopesNeeded?: () => readonly string[]): AuthDecision | Promise<AuthDecision> {
      const header = request.headers.authorization;
      if (header === undefined || !BEARER_SCHEME.test(header)) return missingToken(scopesNeeded);
      const token = BEARER.exec(header)?.[1];
      if (token === undefined) return rejected('The Authorization header is not "Bearer <token>"', scopesNeeded);
      const key = cache.keyOf(token);
      // A token seen before is answered without a promise: the fast path of every request after the first.
      return cache.get(key) ?? verified(token, key, scopesNeeded);
    },
    verify,
    metadata: (resourceUrl?: string, scopes: readonly string[] = []) => protectedResourceMetadata({
      resource: resourceUrl ?? resource,
      authorizationServers: [options.issuer],
      scopes: [...(options.scopesSupported ?? []), ...requiredScopes, ...scopes],
      resourceName: options.resourceName,
      resourceDocumentation: options.resourceDocumentation,
    }),
    resourceMetadataUrl,
    challenges,
    insufficientScope,
  });
}

function jwksUriOf(metadata: AuthorizationServerMetadata, issuer: string): string {
  if (typeof metadata.jwks_uri !== 'string') throw new AuthorizationServerUnavailableError(`the metadata of ${issuer} has no jwks_uri`, 0);
  return metadata.jwks_uri;
}

/**
 * After a failed introspection request, the next ones fail at once until `retryAfterMs` has
 * passed: an outage costs each client request nothing, and the server one request per interval.
 */
class OutageGate {
  private downUntil = -Infinity;
  private failure?: AuthorizationServerUnavailableError;

  constructor(private readonly retryAfterMs: number, private readonly now: () => number, private readonly report: (error: AuthorizationServerUnavailableError) => void) {}

  async run<T>(attempt: () => Promise<T>): Promise<T> {
    const now = this.now();
    if (this.failure && now < this.downUntil) throw new AuthorizationServerUnavailableError(this.failure.message, this.downUntil - now, { cause: this.failure });
    try {
      return await attempt();
    } catch (error) {
      if (error instanceof AuthorizationServerUnavailableError) {
        this.downUntil = now + this.retryAfterMs;
        this.failure = error;
        this.report(error);
      }
      throw error;
    }
  }
}
