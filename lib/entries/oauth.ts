/**
 * `phantom-mcp/oauth`: the OAuth 2.1 resource server. It verifies bearer tokens (JWTs against
 * the authorization server's keys, or introspection), serves the protected resource metadata
 * and builds the `WWW-Authenticate` challenges; the principal it yields is an `AuthInfo`.
 *
 * What a handler and a guard use of it is in the root entry (`phantom-mcp`): the principal
 * (`AuthInfo`, `isAuthInfo`, `principalIdentity`), the scope decorator and guard (`RequireScopes`,
 * `ScopeGuard`) and the error they answer with (`InsufficientScopeError`).
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
