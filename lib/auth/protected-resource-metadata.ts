/**
 * The protected-resource metadata document of RFC 9728: what a client fetches, from the URL in a
 * 401's challenge, to learn which authorization servers issue tokens for this resource.
 */
export interface ProtectedResourceMetadata {
  /** This resource's identifier: the URL tokens must name as their audience (RFC 8707). */
  readonly resource: string;
  readonly authorization_servers: readonly string[];
  readonly scopes_supported?: readonly string[];
  /** Only the `Authorization` header: tokens in a query string or a form body end up in logs. */
  readonly bearer_methods_supported: readonly ['header'];
  readonly resource_name?: string;
  readonly resource_documentation?: string;
}

/** What the document is made of. */
export interface ProtectedResourceMetadataInit {
  readonly resource: string;
  readonly authorizationServers: readonly string[];
  readonly scopes?: readonly string[];
  readonly resourceName?: string;
  readonly resourceDocumentation?: string;
}

/** The RFC 9728 document; `scopes_supported` lists each scope once, in the order first given, and is left out when empty. */
export function protectedResourceMetadata(init: ProtectedResourceMetadataInit): ProtectedResourceMetadata {
  const scopes = [...new Set(init.scopes ?? [])];
  return Object.freeze({
    resource: init.resource,
    authorization_servers: Object.freeze([...init.authorizationServers]),
    ...(scopes.length > 0 ? { scopes_supported: Object.freeze(scopes) } : {}),
    bearer_methods_supported: Object.freeze(['header'] as const),
    ...(init.resourceName === undefined ? {} : { resource_name: init.resourceName }),
    ...(init.resourceDocumentation === undefined ? {} : { resource_documentation: init.resourceDocumentation }),
  });
}

/**
 * Where the metadata of `resource` is served (RFC 9728 section 3.1): the well-known path inserted
 * between the host and the resource's path, a terminating slash dropped, the query kept.
 *
 * @example
 * protectedResourceMetadataUrl('https://api.example.com/mcp')
 * // https://api.example.com/.well-known/oauth-protected-resource/mcp
 */
export function protectedResourceMetadataUrl(resource: string): string {
  return wellKnownUrl(resource, 'oauth-protected-resource');
}

/** The RFC 8414 / RFC 9728 form: `/.well-known/<suffix>` inserted before the URL's path. */
export function wellKnownUrl(identifier: string, suffix: string): string {
  const url = new URL(identifier);
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/$/, '');
  return `${url.origin}/.well-known/${suffix}${path}${url.search}`;
}
