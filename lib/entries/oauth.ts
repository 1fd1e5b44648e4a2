/**
 * `phantom-mcp/oauth`: the OAuth 2.1 resource server. It verifies bearer tokens (JWTs against
 * the authorization server's keys, or introspection), serves the protected resource metadata
 * and builds the `WWW-Authenticate` challenges; the principal it yields is an {@link AuthInfo}.
 *
 * The root entry (`phantom-mcp`) exports these names too, for now; this subpath is where they
 * stay. The scope decorator and guard a server author uses (`RequireScopes`, `ScopeGuard`) stay
 * in the root entry.
 *
 * @example
 * import { oauthResourceServer } from 'phantom-mcp/oauth';
 *
 * @module phantom-mcp/oauth
 */
export { oauthResourceServer, type OAuthResourceServer, type ResourceChallenges } from '../auth/oauth-resource-server';
export { DEFAULT_ALGORITHMS, RESOURCE_SERVER_DEFAULTS, type OAuthResourceServerOptions } from '../auth/resource-server-options';
export type { IntrospectionOptions } from '../auth/token-introspector';
export { bearerChallenge, type BearerChallenge } from '../auth/bearer-challenge';
export {
  protectedResourceMetadata, protectedResourceMetadataUrl, type ProtectedResourceMetadata, type ProtectedResourceMetadataInit,
} from '../auth/protected-resource-metadata';
export { TokenRejectedError, AuthorizationServerUnavailableError } from '../auth/token-errors';
export { scopesFromClaims, type ScopesOf } from '../auth/auth-info.mapper';
export { isAuthInfo, principalIdentity, type AuthInfo } from '../core/auth-info';
