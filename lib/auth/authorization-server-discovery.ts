import { requestJson, isJsonObject, type AuthorizationServerHttp } from './authorization-server.http';
import { wellKnownUrl } from './protected-resource-metadata';

/** What this resource server reads of the authorization server's metadata (RFC 8414, or OpenID Discovery). */
export interface AuthorizationServerMetadata {
  readonly issuer: string;
  readonly jwks_uri?: string;
  readonly introspection_endpoint?: string;
  readonly [name: string]: unknown;
}

/**
 * Where the metadata of `issuer` may be, in the order tried: RFC 8414's
 * `/.well-known/oauth-authorization-server` inserted before the issuer's path, then OpenID's
 * `/.well-known/openid-configuration` inserted the same way and, for an issuer with a path, appended
 * to it (the form OpenID Connect Discovery 1.0 defines, which Keycloak and Entra ID serve).
 */
export function discoveryUrls(issuer: string): string[] {
  const hasPath = new URL(issuer).pathname.replace(/\/$/, '') !== '';
  const urls = [wellKnownUrl(issuer, 'oauth-authorization-server'), wellKnownUrl(issuer, 'openid-configuration')];
  if (hasPath) urls.push(`${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`);
  return urls;
}

/**
 * The metadata of `issuer`: the first document found whose `issuer` is exactly the configured one
 * (RFC 8414 section 3.3: a document naming another issuer must not be used, it may be an
 * impostor's). Rejects when none is found (with what each URL answered) or the network fails.
 */
export async function discoverAuthorizationServer(http: AuthorizationServerHttp, issuer: string): Promise<AuthorizationServerMetadata> {
  const answers: string[] = [];
  for (const url of discoveryUrls(issuer)) {
    const { status, body } = await requestJson(http, url);
    if (status !== 200) {
      answers.push(`${url}: HTTP ${status}`);
    } else if (!isJsonObject(body)) {
      answers.push(`${url}: not a JSON object`);
    } else if (body.issuer !== issuer) {
      answers.push(`${url}: names the issuer ${JSON.stringify(body.issuer)}, not ${JSON.stringify(issuer)}`);
    } else {
      return body as AuthorizationServerMetadata;
    }
  }
  throw new Error(`no usable metadata for the issuer ${issuer} (${answers.join('; ')})`);
}
