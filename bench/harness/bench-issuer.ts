import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';

/**
 * The authorization server of the bearer-token contenders, reduced to what a resource server
 * needs of one: an ES256 key the bench generates, its JWKS served on a loopback port, and one
 * access token for the contender's audience, valid for the whole run. Every request of those
 * contenders carries that token, as a client with a token does until it expires.
 */
export interface BenchIssuer {
  readonly issuer: string;
  readonly jwksUri: string;
  readonly audience: string;
  readonly token: string;
  /** What the contender's process is told: whom to trust. */
  readonly serverArgs: readonly string[];
}

const AUDIENCE = 'http://127.0.0.1/mcp';
const TOKEN_LIFETIME_SEC = 3600;

let started: Promise<BenchIssuer> | undefined;

/** Started once per run, on first use; its server never keeps the bench alive. */
export function benchIssuer(): Promise<BenchIssuer> {
  return (started ??= start());
}

async function start(): Promise<BenchIssuer> {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const jwks = JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid: 'bench', alg: 'ES256', use: 'sig' }] });
  const server: Server = createServer((req, res) => {
    res.writeHead(req.url === '/jwks' ? 200 : 404, { 'content-type': 'application/json' }).end(req.url === '/jwks' ? jwks : '{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  server.unref();
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const jwksUri = `${issuer}/jwks`;
  const token = await new SignJWT({ scope: 'bench', client_id: 'phantom-bench' })
    .setProtectedHeader({ alg: 'ES256', kid: 'bench', typ: 'at+jwt' })
    .setIssuer(issuer)
    .setAudience(AUDIENCE)
    .setSubject('bench')
    .setIssuedAt()
    .setExpirationTime(`${TOKEN_LIFETIME_SEC}s`)
    .sign(privateKey);
  return { issuer, jwksUri, audience: AUDIENCE, token, serverArgs: ['--issuer', issuer, '--jwks-uri', jwksUri, '--audience', AUDIENCE] };
}
