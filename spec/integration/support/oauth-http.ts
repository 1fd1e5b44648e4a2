import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ClientCredentialsProvider } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import type { JWTPayload } from 'jose';
import { AS_CLIENTS, type AuthorizationServerFixture } from '../../support/authorization-server.fixture';
import { newClient } from './sdk-clients';
import { freePort } from '../../support/free-port';

export { freePort };

export function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

/** Claims of an access token of `as` for `audience`, valid for ten minutes, with `overrides`. */
export function claims(as: AuthorizationServerFixture, audience: string, overrides: JWTPayload = {}): JWTPayload {
  const now = Math.floor(Date.now() / 1000);
  return { iss: as.issuer, aud: audience, sub: AS_CLIENTS.jwt.id, client_id: AS_CLIENTS.jwt.id, iat: now, exp: now + 600, scope: 'notes:read', ...overrides };
}

/**
 * The official client with the SDK's `ClientCredentialsProvider` for the fixture's JWT client: it
 * learns everything from the server's 401 (the protected-resource metadata, then the
 * authorization server's metadata) and asks for a token with the resource indicator and `scope`
 * (SDK 1.32 sends the provider's configured scope in a client-credentials request, not the one a
 * challenge names, so it cannot step up by itself).
 */
export async function connectWithClientCredentials(url: string, as: AuthorizationServerFixture, scope: string): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const provider = new ClientCredentialsProvider({ clientId: AS_CLIENTS.jwt.id, clientSecret: AS_CLIENTS.jwt.secret, expectedIssuer: as.issuer, scope });
  const transport = new StreamableHTTPClientTransport(new URL(url), { authProvider: provider });
  const client = newClient();
  await client.connect(transport);
  return { client, transport };
}
