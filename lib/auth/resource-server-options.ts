import type { Diagnostics } from '../core/diagnostics';
import { PhantomError } from '../core/errors';
import { SCOPE_TOKEN } from '../core/auth-info';
import type { ScopesOf } from './auth-info.mapper';
import type { IntrospectionOptions } from './token-introspector';

/**
 * Settings of `oauthResourceServer`: who issues the tokens, who they must be for, and the limits
 * of talking to the issuer. Only `issuer` and `audience` are required; every limit has a default.
 *
 * @example
 * oauthResourceServer({
 *   issuer: 'https://auth.example.com/realms/notes',       // Keycloak realm; JWKS discovered from it
 *   audience: 'https://notes.example.com/mcp',             // this server's URL: tokens must be for it
 *   requiredScopes: ['notes:read'],
 * })
 */
export interface OAuthResourceServerOptions {
  /** The authorization server's issuer identifier, exactly as its metadata and its tokens spell it (mind a trailing `/`). */
  readonly issuer: string;
  /** The audience every token must name: this resource's identifier (RFC 8707), usually the MCP endpoint's URL. */
  readonly audience: string;
  /** This resource's identifier in the protected-resource metadata (default: `audience`). */
  readonly resource?: string;
  /** The JWKS URL; default: `jwks_uri` from the issuer's metadata (RFC 8414, else OpenID Discovery). */
  readonly jwksUri?: string;
  /** Accept opaque (non-JWT) tokens by asking the authorization server about them (RFC 7662). */
  readonly introspection?: IntrospectionOptions;
  /** Scopes every request needs; a token without them is refused with 403 `insufficient_scope`. */
  readonly requiredScopes?: readonly string[];
  /**
   * The scopes a 401 challenge names (`WWW-Authenticate: Bearer ..., scope="..."`): what a client
   * asks the authorization server for when it has no token or a refused one (the MCP authorization
   * spec's scope selection strategy; without `scope` a client asks for every scope of
   * `scopes_supported`). Default: `requiredScopes` plus the scopes every operation of the server
   * needs: those of `server.use(new ScopeGuard(...))` and those every tool, prompt and resource
   * declares alike. `[]`: the challenge names none.
   */
  readonly challengeScopes?: readonly string[];
  /** Scopes advertised in the protected-resource metadata, besides `requiredScopes` and those the decorators declare. */
  readonly scopesSupported?: readonly string[];
  /** Signature algorithms accepted (default: the asymmetric ones, `DEFAULT_ALGORITHMS`). `none` and the HMAC ones are refused. */
  readonly algorithms?: readonly string[];
  /** How far `exp` and `nbf` may be off, in seconds (default 30). */
  readonly clockToleranceSec?: number;
  /** The URL of this resource's metadata document, sent in challenges (default: RFC 9728's well-known URL of `resource`). */
  readonly resourceMetadataUrl?: string;
  /** `resource_name` in the metadata. */
  readonly resourceName?: string;
  /** `resource_documentation` in the metadata. */
  readonly resourceDocumentation?: string;
  /** Where a token's scopes are read from (default: `scope`, else `scp`). Entra ID app-only tokens carry `roles`: `(claims) => (claims.roles as string[] | undefined) ?? []`. */
  readonly scopesOf?: ScopesOf;
  /** Deadline of each request to the authorization server, in ms (default 5000), body included. */
  readonly timeoutMs?: number;
  /**
   * Largest document read from the authorization server (metadata, keys, introspection answer), in
   * bytes (default 524,288: 512 KiB). A larger one is refused unread past the cap, reported, and the
   * keys already fetched stay in use.
   */
  readonly maxDocumentBytes?: number;
  /**
   * After a failed request to the authorization server, how long requests that need it are
   * answered 503 at once (with this `Retry-After`) before it is asked again, in seconds (default 5).
   */
  readonly retryAfterSec?: number;
  /** After fetching the keys, how long a token naming an unknown key waits for the next fetch, in seconds (default 30). */
  readonly jwksCooldownSec?: number;
  /** How old the keys may get before they are fetched again, in seconds (default 600); the old ones serve if that fails. */
  readonly jwksMaxAgeSec?: number;
  /** Verified tokens remembered, each until it expires (default 10,000; 0: verify every request). */
  readonly cacheMaxEntries?: number;
  /** How long an introspection answer is trusted, in seconds (default 60, and never past the token's `exp`). */
  readonly introspectionCacheTtlSec?: number;
  /** Longest token accepted, in characters (default 8192); a longer one is refused unread. */
  readonly maxTokenLength?: number;
  /** The `fetch` used to reach the authorization server (default: the global one). */
  readonly fetch?: typeof fetch;
  /** Where failures to reach the authorization server are reported (default: stderr). */
  readonly diagnostics?: Diagnostics;
  /** The clock, in ms since the epoch (default `Date.now`); for tests. */
  readonly now?: () => number;
}

/** The asymmetric JWS algorithms: a resource server holds public keys only, so it cannot mint the tokens it accepts. */
export const DEFAULT_ALGORITHMS: readonly string[] = Object.freeze([
  'RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519',
]);

/** The default of each numeric option of `OAuthResourceServerOptions`, by option name (units in the names: `Sec`, `Ms`). */
export const RESOURCE_SERVER_DEFAULTS = Object.freeze({
  clockToleranceSec: 30,
  timeoutMs: 5000,
  maxDocumentBytes: 512 * 1024,
  retryAfterSec: 5,
  jwksCooldownSec: 30,
  jwksMaxAgeSec: 600,
  cacheMaxEntries: 10_000,
  introspectionCacheTtlSec: 60,
  maxTokenLength: 8192,
});

/** Every problem of the options at once, or nothing; thrown by `oauthResourceServer` as one `PhantomError`. */
export function checkResourceServerOptions(options: OAuthResourceServerOptions): void {
  const problems = [
    ...urlProblems('issuer', options.issuer),
    ...(typeof options.audience === 'string' && options.audience !== '' ? [] : ['audience must be a non-empty string (this resource\'s identifier)']),
    ...(options.resource === undefined ? [] : urlProblems('resource', options.resource)),
    ...(options.jwksUri === undefined ? [] : urlProblems('jwksUri', options.jwksUri)),
    ...(options.resourceMetadataUrl === undefined ? [] : urlProblems('resourceMetadataUrl', options.resourceMetadataUrl)),
    ...(options.introspection === undefined ? [] : introspectionProblems(options.introspection)),
    ...scopeProblems('requiredScopes', options.requiredScopes),
    ...scopeProblems('scopesSupported', options.scopesSupported),
    ...scopeProblems('challengeScopes', options.challengeScopes),
    ...algorithmProblems(options.algorithms),
    ...numberProblems(options),
  ];
  if (problems.length > 0) throw new PhantomError('oauth_resource_server_invalid', `oauthResourceServer: ${problems.join('; ')}`);
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** An https URL; plain http only on loopback (a server on the developer's machine, a test). */
function urlProblems(name: string, value: unknown): string[] {
  if (typeof value !== 'string') return [`${name} must be a URL`];
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return [`${name} must be a URL, not ${JSON.stringify(value)}`];
  }
  if (url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.has(url.hostname))) return url.hash === '' ? [] : [`${name} must have no fragment`];
  return [`${name} must be an https URL (http only on loopback), not ${value}`];
}

function introspectionProblems(introspection: IntrospectionOptions): string[] {
  return [
    ...urlProblems('introspection.endpoint', introspection.endpoint),
    ...(typeof introspection.clientId === 'string' && introspection.clientId !== '' ? [] : ['introspection.clientId must be a non-empty string']),
    ...(typeof introspection.clientSecret === 'string' && introspection.clientSecret !== '' ? [] : ['introspection.clientSecret must be a non-empty string']),
  ];
}

function scopeProblems(name: string, scopes: readonly string[] | undefined): string[] {
  if (scopes === undefined) return [];
  if (!Array.isArray(scopes)) return [`${name} must be an array of scopes`];
  return scopes.filter((scope) => typeof scope !== 'string' || !SCOPE_TOKEN.test(scope))
    .map((scope) => `${name}: ${JSON.stringify(scope)} is not a scope (printable ASCII without space, " or \\)`);
}

function algorithmProblems(algorithms: readonly string[] | undefined): string[] {
  if (algorithms === undefined) return [];
  if (!Array.isArray(algorithms) || algorithms.length === 0) return ['algorithms must be a non-empty array'];
  return algorithms.filter((alg) => alg === 'none' || /^HS/i.test(alg) || typeof alg !== 'string')
    .map((alg) => `algorithm ${JSON.stringify(alg)} is refused: ${alg === 'none' ? 'unsigned tokens prove nothing' : 'with a shared secret this server could mint the tokens it accepts'}`);
}

const NUMBERS: ReadonlyArray<readonly [keyof typeof RESOURCE_SERVER_DEFAULTS, number]> = [
  ['clockToleranceSec', 0], ['timeoutMs', 1], ['maxDocumentBytes', 1], ['retryAfterSec', 0], ['jwksCooldownSec', 0], ['jwksMaxAgeSec', 0],
  ['cacheMaxEntries', 0], ['introspectionCacheTtlSec', 0], ['maxTokenLength', 1],
];

function numberProblems(options: OAuthResourceServerOptions): string[] {
  return NUMBERS.filter(([name, min]) => {
    const value = options[name];
    return value !== undefined && !(Number.isFinite(value) && value >= min);
  }).map(([name, min]) => `${name} must be a number of at least ${min}, not ${options[name]}`);
}
