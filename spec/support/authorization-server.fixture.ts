import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK, type JWTPayload } from 'jose';

/**
 * A real OAuth 2.1 authorization server for the specs: `oidc-provider` (a certified OpenID
 * provider) on a loopback port, issuing access tokens through the client-credentials grant for the
 * resource indicator asked (RFC 8707), as JWTs for the client `jwt-client` and as opaque tokens
 * (to introspect) for `opaque-client`. Its signing keys are made here, so a spec can rotate them
 * and sign tokens of its own with a key the server publishes.
 */

/** The clients it knows, with their secrets. */
export const AS_CLIENTS = Object.freeze({
  jwt: { id: 'jwt-client', secret: 'jwt-client-secret' },
  opaque: { id: 'opaque-client', secret: 'opaque-client-secret' },
  /** The resource server's own client: what it introspects with. */
  resourceServer: { id: 'resource-server', secret: 'resource-server-secret' },
});

/** Scopes any token may be granted. */
export const AS_SCOPES = 'notes:read notes:write notes:admin';

export interface TokenRequest {
  /** The resource indicator: the token's audience. */
  readonly resource: string;
  /** Space-separated scopes asked for (default: none). */
  readonly scope?: string;
  /** Default: `jwt`. */
  readonly client?: 'jwt' | 'opaque';
}

interface SigningKey {
  readonly kid: string;
  readonly privateKey: CryptoKey;
  readonly jwk: JWK;
}

/** The part of oidc-provider's API the fixture uses (it ships no TypeScript types). */
interface ProviderInstance {
  callback(): (req: IncomingMessage, res: ServerResponse) => void;
}
type ProviderClass = new (issuer: string, configuration: Record<string, unknown>) => ProviderInstance;

export class AuthorizationServerFixture {
  /** Access tokens live this long, in seconds (read when each is issued). */
  tokenTtlSec = 600;
  private provider!: ProviderInstance;
  private keys: SigningKey[] = [];
  private readonly storage = new Map<string, unknown>();

  private constructor(private readonly server: Server, readonly issuer: string, private readonly Provider: ProviderClass) {}

  /** Starts a server on 127.0.0.1 with one signing key. */
  static async start(): Promise<AuthorizationServerFixture> {
    // oidc-provider is ESM-only; a CommonJS spec loads it with import(). The specifier is a variable so tsc looks for no types.
    const specifier = 'oidc-provider';
    const { default: Provider } = (await import(specifier)) as { default: ProviderClass };
    let fixture: AuthorizationServerFixture | undefined;
    const server = createServer((req, res) => fixture!.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    fixture = new AuthorizationServerFixture(server, `http://127.0.0.1:${port}`, Provider);
    await fixture.rotateKeys();
    return fixture;
  }

  /** The key new tokens are signed with. */
  get currentKid(): string {
    return this.keys[0].kid;
  }

  /**
   * Makes a new signing key, published first in the JWKS; the old ones stay published (as in a
   * real rotation, so tokens they signed keep verifying) unless `dropOld`.
   */
  async rotateKeys(options: { dropOld?: boolean } = {}): Promise<string> {
    const { privateKey } = await generateKeyPair('RS256', { extractable: true });
    const kid = `key-${this.keys.length + 1}-${Math.random().toString(36).slice(2, 8)}`;
    const jwk: JWK = { ...(await exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' };
    this.keys = [{ kid, privateKey, jwk }, ...(options.dropOld ? [] : this.keys)];
    this.provider = this.makeProvider();
    return kid;
  }

  /** A token from the server's token endpoint (client credentials). */
  async token(request: TokenRequest): Promise<string> {
    const client = AS_CLIENTS[request.client ?? 'jwt'];
    const body = new URLSearchParams({ grant_type: 'client_credentials', resource: request.resource });
    if (request.scope) body.set('scope', request.scope);
    const response = await fetch(`${this.issuer}/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString('base64')}`,
      },
      body,
    });
    const answer = (await response.json()) as { access_token?: string; error?: string; error_description?: string };
    if (!answer.access_token) throw new Error(`the token endpoint refused: ${answer.error} ${answer.error_description ?? ''}`);
    return answer.access_token;
  }

  /** A JWT signed by this server's current key with the claims and header given (for claims the server would not issue). */
  async sign(claims: JWTPayload, header: Record<string, unknown> = {}): Promise<string> {
    const [key] = this.keys;
    return new SignJWT(claims).setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: key.kid, ...header }).sign(key.privateKey);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    this.provider.callback()(req, res);
  }

  private makeProvider(): ProviderInstance {
    const fixture = this;
    return new this.Provider(this.issuer, {
      jwks: { keys: this.keys.map((key) => key.jwk) },
      adapter: memoryAdapter(this.storage),
      cookies: { keys: ['spec-cookie-key'] },
      clients: [AS_CLIENTS.jwt, AS_CLIENTS.opaque, AS_CLIENTS.resourceServer].map((client) => ({
        client_id: client.id, client_secret: client.secret, grant_types: ['client_credentials'], redirect_uris: [], response_types: [],
      })),
      ttl: { ClientCredentials: () => fixture.tokenTtlSec },
      features: {
        devInteractions: { enabled: false },
        clientCredentials: { enabled: true },
        // Any client of this server may introspect: the spec's resource server is the only one that does.
        introspection: { enabled: true, allowedPolicy: async () => true },
        resourceIndicators: {
          enabled: true,
          defaultResource: () => undefined,
          useGrantedResource: () => true,
          getResourceServerInfo: (_ctx: unknown, resource: string, client: { clientId: string }) => ({
            scope: AS_SCOPES,
            audience: resource,
            accessTokenFormat: client.clientId === AS_CLIENTS.opaque.id ? 'opaque' : 'jwt',
          }),
        },
      },
    });
  }
}

/**
 * oidc-provider's storage, in a Map the fixture keeps across key rotations (the provider is made
 * again with the new keys; opaque tokens issued before must still be found).
 */
function memoryAdapter(storage: Map<string, unknown>) {
  return class MemoryAdapter {
    constructor(private readonly model: string) {}
    private key(id: string) {
      return `${this.model}:${id}`;
    }
    async upsert(id: string, payload: Record<string, unknown>) {
      storage.set(this.key(id), payload);
    }
    async find(id: string) {
      return storage.get(this.key(id));
    }
    async findByUserCode() {
      return undefined;
    }
    async findByUid() {
      return undefined;
    }
    async consume(id: string) {
      const payload = storage.get(this.key(id)) as Record<string, unknown> | undefined;
      if (payload) payload.consumed = Math.floor(Date.now() / 1000);
    }
    async destroy(id: string) {
      storage.delete(this.key(id));
    }
    async revokeByGrantId() {}
  };
}
