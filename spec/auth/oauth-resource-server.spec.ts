import { expect } from 'chai';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { base64url, decodeJwt } from 'jose';
import { PhantomError, SILENT_DIAGNOSTICS } from '../../lib';
import { oauthResourceServer, type OAuthResourceServer, type OAuthResourceServerOptions } from '../../lib/entries/oauth';
import type { AuthDecision } from '../../lib/core/auth-decision';
import { AS_CLIENTS, AuthorizationServerFixture } from '../support/authorization-server.fixture';

const RESOURCE = 'http://127.0.0.1:3000/mcp';
const METADATA_URL = 'http://127.0.0.1:3000/.well-known/oauth-protected-resource/mcp';

/** A `fetch` that counts the requests it passes on, by path. */
function countingFetch() {
  const paths: string[] = [];
  const counting: typeof fetch = (input, init) => {
    paths.push(new URL(String(input)).pathname);
    return fetch(input, init);
  };
  return { fetch: counting, count: (suffix: string) => paths.filter((path) => path.endsWith(suffix)).length, paths };
}

function bearer(token: string) {
  return { method: 'POST', url: '/mcp', headers: { authorization: `Bearer ${token}` } };
}

async function decide(server: OAuthResourceServer, token: string): Promise<AuthDecision> {
  return server.authenticate(bearer(token));
}

/** A port nothing listens on (one just closed). */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/**
 * Writes a syntactically valid key set of `size` bytes (no keys, a long padding member), 64 KiB at a
 * time as the client takes them; resolves with the bytes written once the client finished or left.
 */
function streamHugeKeySet(res: ServerResponse, size: number): Promise<number> {
  const chunk = Buffer.alloc(64 * 1024, 'x');
  const head = '{"keys":[],"padding":"';
  const tail = '"}';
  let sent = 0;
  return new Promise((resolve) => {
    res.on('close', () => resolve(sent));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write(head);
    sent += head.length;
    const more = (): void => {
      while (!res.destroyed && sent + chunk.length + tail.length < size) {
        sent += chunk.length;
        if (!res.write(chunk)) { res.once('drain', more); return; }
      }
      if (!res.destroyed) res.end(tail);
    };
    more();
  });
}

describe('oauthResourceServer', () => {
  let as: AuthorizationServerFixture;
  let now: number;
  let counter: ReturnType<typeof countingFetch>;

  before(async () => { as = await AuthorizationServerFixture.start(); });
  after(async () => { await as.close(); });
  beforeEach(() => {
    now = Date.now();
    counter = countingFetch();
    as.tokenTtlSec = 600;
  });

  function resourceServer(options: Partial<OAuthResourceServerOptions> = {}): OAuthResourceServer {
    return oauthResourceServer({
      issuer: as.issuer, audience: RESOURCE, fetch: counter.fetch, now: () => now, diagnostics: SILENT_DIAGNOSTICS, ...options,
    });
  }

  describe('#authenticate', () => {
    context('when the request carries no token', () => {
      it('answers 401 with a challenge naming the resource metadata and no error', async () => {
        const decision = await resourceServer().authenticate({ method: 'POST', url: '/mcp', headers: {} });
        expect(decision).to.deep.include({ allow: false, status: 401, wwwAuthenticate: `Bearer resource_metadata="${METADATA_URL}"` });
      });

      it('ignores a token in the query string (tokens in URLs end up in logs)', async () => {
        const token = await as.token({ resource: RESOURCE, scope: 'notes:read' });
        const decision = await resourceServer().authenticate({ method: 'POST', url: `/mcp?access_token=${token}`, headers: {} });
        expect(decision).to.deep.include({ allow: false, status: 401, wwwAuthenticate: `Bearer resource_metadata="${METADATA_URL}"` });
      });

      it('treats another scheme as no bearer token', async () => {
        const decision = await resourceServer().authenticate({ method: 'POST', url: '/mcp', headers: { authorization: 'Basic dXNlcjpwYXNz' } });
        expect(decision).to.deep.include({ status: 401, wwwAuthenticate: `Bearer resource_metadata="${METADATA_URL}"` });
      });
    });

    context('when the token was issued for this resource', () => {
      it('lets the request in with the token\'s AuthInfo, plain data', async () => {
        const token = await as.token({ resource: RESOURCE, scope: 'notes:read' });
        const decision = await decide(resourceServer(), token);
        expect(decision.allow).to.equal(true);
        const principal = (decision as { principal: Record<string, unknown> }).principal;
        expect(principal).to.deep.include({
          subject: AS_CLIENTS.jwt.id, clientId: AS_CLIENTS.jwt.id, scopes: ['notes:read'], issuer: as.issuer, audience: [RESOURCE],
          expiresAt: decodeJwt(token).exp,
        });
        expect(JSON.parse(JSON.stringify(principal))).to.deep.equal(principal);
      });

      it('lets it in when it has every required scope', async () => {
        const token = await as.token({ resource: RESOURCE, scope: 'notes:read notes:write' });
        const decision = await decide(resourceServer({ requiredScopes: ['notes:write'] }), token);
        expect(decision.allow).to.equal(true);
      });

      it('answers 403 insufficient_scope naming the required scopes when one is missing', async () => {
        const token = await as.token({ resource: RESOURCE, scope: 'notes:read' });
        const decision = await decide(resourceServer({ requiredScopes: ['notes:read', 'notes:write'] }), token);
        expect(decision).to.deep.include({
          allow: false, status: 403,
          wwwAuthenticate: `Bearer resource_metadata="${METADATA_URL}", error="insufficient_scope", scope="notes:read notes:write"`,
        });
      });
    });

    context('when the token is refused', () => {
      async function expectInvalidToken(server: OAuthResourceServer, token: string, description: string): Promise<void> {
        const decision = await decide(server, token);
        expect(decision).to.deep.include({
          allow: false, status: 401,
          wwwAuthenticate: `Bearer resource_metadata="${METADATA_URL}", error="invalid_token", error_description="${description}"`,
        });
        expect(JSON.stringify(decision)).not.to.contain(token.split('.')[1] ?? token);
      }

      it('refuses an expired token', async () => {
        as.tokenTtlSec = 60;
        const token = await as.token({ resource: RESOURCE, scope: 'notes:read' });
        now += 60_000 + 31_000;
        await expectInvalidToken(resourceServer(), token, 'The access token expired');
      });

      it('stops accepting a remembered token once it expires', async () => {
        as.tokenTtlSec = 60;
        const token = await as.token({ resource: RESOURCE, scope: 'notes:read' });
        const server = resourceServer({ clockToleranceSec: 0 });
        expect((await decide(server, token)).allow).to.equal(true);
        now = (decodeJwt(token).exp! + 1) * 1000;
        await expectInvalidToken(server, token, 'The access token expired');
      });

      it('refuses a token issued for another resource (no token passthrough)', async () => {
        const token = await as.token({ resource: 'http://127.0.0.1:4000/other-mcp', scope: 'notes:read' });
        await expectInvalidToken(resourceServer(), token, 'The access token was not issued for this resource');
      });

      it('refuses a token of another issuer, even signed with a published key', async () => {
        const token = await as.sign({ iss: 'http://127.0.0.1:1/impostor', aud: RESOURCE, sub: 'mallory', scope: 'notes:read', exp: Math.floor(now / 1000) + 600 });
        await expectInvalidToken(resourceServer(), token, 'The access token was not issued by the expected authorization server');
      });

      it('refuses a token issued in the future, beyond clockToleranceSec', async () => {
        const nowSec = Math.floor(now / 1000);
        const token = await as.sign({ iss: as.issuer, aud: RESOURCE, sub: 'mallory', scope: 'notes:read', iat: nowSec + 3600, exp: nowSec + 7200 });
        await expectInvalidToken(resourceServer(), token, 'The access token was issued in the future');
      });

      it('accepts a token issued within clockToleranceSec ahead of this clock', async () => {
        const nowSec = Math.floor(now / 1000);
        const token = await as.sign({ iss: as.issuer, aud: RESOURCE, sub: 'user', scope: 'notes:read', iat: nowSec + 20, exp: nowSec + 600 });
        expect((await decide(resourceServer({ clockToleranceSec: 30 }), token)).allow).to.equal(true);
      });

      it('refuses an unsigned token (alg none)', async () => {
        const claims = { iss: as.issuer, aud: RESOURCE, sub: 'mallory', scope: 'notes:read notes:write', exp: Math.floor(now / 1000) + 600 };
        const token = `${base64url.encode(JSON.stringify({ alg: 'none', typ: 'at+jwt' }))}.${base64url.encode(JSON.stringify(claims))}.`;
        await expectInvalidToken(resourceServer(), token, 'The access token is signed with an algorithm this resource does not accept');
      });

      it('refuses a token whose claims were changed after signing', async () => {
        const [header, payload, signature] = (await as.token({ resource: RESOURCE, scope: 'notes:read' })).split('.');
        const widened = { ...JSON.parse(new TextDecoder().decode(base64url.decode(payload))), scope: 'notes:read notes:write' };
        const token = `${header}.${base64url.encode(JSON.stringify(widened))}.${signature}`;
        await expectInvalidToken(resourceServer(), token, 'The access token signature is invalid');
      });

      it('refuses a JWT that is not an access token (typ)', async () => {
        const token = await as.sign({ iss: as.issuer, aud: RESOURCE, sub: 'user', exp: Math.floor(now / 1000) + 600 }, { typ: 'logout+jwt' });
        await expectInvalidToken(resourceServer(), token, 'The token is not an access token');
      });

      it('refuses an opaque token when no introspection is configured', async () => {
        const token = await as.token({ resource: RESOURCE, scope: 'notes:read', client: 'opaque' });
        await expectInvalidToken(resourceServer(), token, 'The access token is not a JWT');
      });

      it('refuses a token longer than maxTokenLength without reading it', async () => {
        await expectInvalidToken(resourceServer({ maxTokenLength: 100 }), 'a'.repeat(101), 'The access token is too long');
        expect(counter.paths).to.deep.equal([]);
      });
    });

    context('when the authorization server rotates its keys', () => {
      it('fetches the keys again for an unknown kid once the cooldown has passed, and accepts the new key', async () => {
        const server = resourceServer();
        expect((await decide(server, await as.token({ resource: RESOURCE, scope: 'notes:read' }))).allow).to.equal(true);
        expect(counter.count('/jwks')).to.equal(1);
        await as.rotateKeys({ dropOld: true });
        const rotated = await as.token({ resource: RESOURCE, scope: 'notes:read' });
        now += 31_000;
        expect((await decide(server, rotated)).allow).to.equal(true);
        expect(counter.count('/jwks')).to.equal(2);
      });

      it('does not fetch them again for unknown kids within the cooldown (bounded in rate)', async () => {
        const server = resourceServer();
        expect((await decide(server, await as.token({ resource: RESOURCE }))).allow).to.equal(true);
        await as.rotateKeys();
        const rotated = await as.token({ resource: RESOURCE });
        const decisions = await Promise.all([decide(server, rotated), decide(server, rotated), decide(server, rotated)]);
        expect(decisions.map((d) => d.allow)).to.deep.equal([false, false, false]);
        expect(decisions[0]).to.deep.include({ status: 401 });
        expect(counter.count('/jwks')).to.equal(1);
      });
    });

    context('when a token was verified before', () => {
      it('answers from memory: no promise, no request to the authorization server', async () => {
        const server = resourceServer({ jwksMaxAgeSec: 60 });
        const token = await as.token({ resource: RESOURCE, scope: 'notes:read' });
        expect((await decide(server, token)).allow).to.equal(true);
        const fetched = counter.paths.length;
        // Keys older than jwksMaxAgeSec are fetched again by a verification: a remembered token needs none.
        now += 61_000;
        const again = server.authenticate(bearer(token));
        expect(again).not.to.be.instanceOf(Promise);
        expect((again as AuthDecision).allow).to.equal(true);
        expect(counter.paths.length).to.equal(fetched);
      });

      it('discovers the metadata once (OpenID Discovery after RFC 8414) and checks its issuer', async () => {
        const server = resourceServer();
        await decide(server, await as.token({ resource: RESOURCE }));
        await decide(server, await as.token({ resource: RESOURCE }));
        expect(counter.paths.filter((path) => path.startsWith('/.well-known/'))).to.deep.equal([
          '/.well-known/oauth-authorization-server', '/.well-known/openid-configuration',
        ]);
      });
    });

    context('with introspection for opaque tokens', () => {
      const introspection = () => ({ endpoint: `${as.issuer}/token/introspection`, clientId: AS_CLIENTS.resourceServer.id, clientSecret: AS_CLIENTS.resourceServer.secret });

      it('lets an active token for this resource in, with its scopes', async () => {
        const token = await as.token({ resource: RESOURCE, scope: 'notes:write', client: 'opaque' });
        const decision = await decide(resourceServer({ introspection: introspection() }), token);
        expect(decision.allow).to.equal(true);
        expect((decision as { principal: unknown }).principal).to.deep.include({ subject: AS_CLIENTS.opaque.id, scopes: ['notes:write'], audience: [RESOURCE] });
      });

      it('asks once per token until introspectionCacheTtlSec has passed', async () => {
        const server = resourceServer({ introspection: introspection(), introspectionCacheTtlSec: 30 });
        const token = await as.token({ resource: RESOURCE, scope: 'notes:read', client: 'opaque' });
        await decide(server, token);
        await decide(server, token);
        expect(counter.count('/introspection')).to.equal(1);
        now += 31_000;
        expect((await decide(server, token)).allow).to.equal(true);
        expect(counter.count('/introspection')).to.equal(2);
      });

      it('refuses a token the server says is not active', async () => {
        const decision = await decide(resourceServer({ introspection: introspection() }), 'not-a-token-the-server-issued');
        expect(decision).to.deep.include({ status: 401 });
        expect((decision as { wwwAuthenticate: string }).wwwAuthenticate).to.contain('error="invalid_token", error_description="The access token is not active"');
      });

      it('refuses an active token the server says was issued in the future', async () => {
        const iat = Math.floor(now / 1000) + 3600;
        const answer: typeof fetch = async () => new Response(JSON.stringify({ active: true, iss: as.issuer, aud: RESOURCE, sub: 'user', iat, exp: iat + 600 }), { status: 200 });
        const decision = await decide(resourceServer({ introspection: introspection(), fetch: answer }), 'an-opaque-token');
        expect((decision as { wwwAuthenticate: string }).wwwAuthenticate).to.contain('error_description="The access token was issued in the future"');
      });

      it('refuses an active token issued for another resource', async () => {
        const token = await as.token({ resource: 'http://127.0.0.1:4000/other-mcp', scope: 'notes:read', client: 'opaque' });
        const decision = await decide(resourceServer({ introspection: introspection() }), token);
        expect((decision as { wwwAuthenticate: string }).wwwAuthenticate).to.contain('error_description="The access token was not issued for this resource"');
      });
    });

    context('when the authorization server cannot be reached', () => {
      it('answers 503 with Retry-After, and asks again only after it', async () => {
        const issuer = `http://127.0.0.1:${await closedPort()}`;
        const server = resourceServer({ issuer, retryAfterSec: 5 });
        const token = await as.token({ resource: RESOURCE });
        expect(await decide(server, token)).to.deep.include({ allow: false, status: 503, retryAfterSec: 5 });
        expect(await decide(server, token)).to.deep.include({ status: 503 });
        expect(counter.paths).to.have.length(1);
        now += 5_000;
        await decide(server, token);
        expect(counter.paths).to.have.length(2);
      });

      it('gives up on a server that does not answer within timeoutMs', async () => {
        const silent: typeof fetch = (_input, init) => new Promise((_resolve, reject) => {
          init!.signal!.addEventListener('abort', () => reject(init!.signal!.reason));
        });
        const decision = await decide(resourceServer({ fetch: silent, timeoutMs: 20 }), await as.token({ resource: RESOURCE }));
        expect(decision).to.deep.include({ allow: false, status: 503 });
      });

      it('keeps verifying with the keys it has when a refresh fails', async () => {
        let down = false;
        const flaky: typeof fetch = (input, init) => (down ? Promise.reject(new Error('connection refused')) : fetch(input, init));
        const server = resourceServer({ fetch: flaky, jwksMaxAgeSec: 60, cacheMaxEntries: 0 });
        expect((await decide(server, await as.token({ resource: RESOURCE }))).allow).to.equal(true);
        down = true;
        now += 61_000;
        expect((await decide(server, await as.token({ resource: RESOURCE }))).allow).to.equal(true);
      });
    });

    context('when the metadata names another issuer', () => {
      it('does not use it: 503, and the diagnostics say why', async () => {
        const errors: string[] = [];
        const impostor: typeof fetch = async () => new Response(JSON.stringify({ issuer: 'https://evil.example', jwks_uri: 'https://evil.example/jwks' }), { status: 200 });
        const server = resourceServer({ fetch: impostor, diagnostics: { ...SILENT_DIAGNOSTICS, error: (message) => { errors.push(message); } } });
        expect(await decide(server, await as.token({ resource: RESOURCE }))).to.deep.include({ status: 503 });
        expect(errors.join('\n')).to.contain('names the issuer "https://evil.example"');
      });
    });
    context('when the authorization server sends a document larger than maxDocumentBytes', () => {
      const HUGE = 50 * 1024 * 1024;
      let keyServer: Server;
      let keysUrl: string;
      let huge: boolean;
      let written: Promise<number>;

      /** Serves the fixture's keys, or (when `huge`) a 50 MB JSON key set made as it is sent, counting the bytes it gets to write. */
      before(async () => {
        keyServer = createServer((req, res) => {
          if (!huge) {
            void fetch(`${as.issuer}/jwks`).then(async (answer) => res.end(await answer.text()));
            return;
          }
          written = streamHugeKeySet(res, HUGE);
        });
        await new Promise<void>((resolve) => keyServer.listen(0, '127.0.0.1', resolve));
        keysUrl = `http://127.0.0.1:${(keyServer.address() as AddressInfo).port}/jwks`;
      });
      after(async () => {
        keyServer.closeAllConnections();
        await new Promise<void>((resolve) => keyServer.close(() => resolve()));
      });
      beforeEach(() => { huge = false; });

      it('stops reading it early, reports it, and keeps verifying with the keys it had', async () => {
        const errors: string[] = [];
        const server = resourceServer({
          jwksUri: keysUrl, jwksMaxAgeSec: 60, cacheMaxEntries: 0, maxDocumentBytes: 64 * 1024,
          diagnostics: { ...SILENT_DIAGNOSTICS, error: (message) => { errors.push(message); } },
        });
        expect((await decide(server, await as.token({ resource: RESOURCE }))).allow).to.equal(true);
        huge = true;
        now += 61_000;
        expect((await decide(server, await as.token({ resource: RESOURCE }))).allow).to.equal(true);
        expect(await written).to.be.below(HUGE / 4);
        expect(errors.join('\n')).to.contain('more than the 65536 bytes allowed (maxDocumentBytes)');
      });

      it('gives up on a document whose body stops arriving, within timeoutMs', async () => {
        const errors: string[] = [];
        const trickle = createServer((_req, res) => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.write('{"keys":[');
        });
        await new Promise<void>((resolve) => trickle.listen(0, '127.0.0.1', resolve));
        try {
          const server = resourceServer({
            jwksUri: `http://127.0.0.1:${(trickle.address() as AddressInfo).port}/jwks`, timeoutMs: 100,
            diagnostics: { ...SILENT_DIAGNOSTICS, error: (message) => { errors.push(message); } },
          });
          expect(await decide(server, await as.token({ resource: RESOURCE }))).to.deep.include({ allow: false, status: 503 });
          expect(errors.join('\n')).to.contain('the JSON Web Key Set could not be fetched');
        } finally {
          trickle.closeAllConnections();
          await new Promise<void>((resolve) => trickle.close(() => resolve()));
        }
      });

      it('refuses a declared Content-Length past the cap without reading the body', async () => {
        const errors: string[] = [];
        const declared: typeof fetch = async () => new Response('{"keys":[]}'.padEnd(2048, ' '), { status: 200, headers: { 'content-length': '2048' } });
        const server = resourceServer({
          jwksUri: keysUrl, fetch: declared, maxDocumentBytes: 1024,
          diagnostics: { ...SILENT_DIAGNOSTICS, error: (message) => { errors.push(message); } },
        });
        expect(await decide(server, await as.token({ resource: RESOURCE }))).to.deep.include({ allow: false, status: 503 });
        expect(errors.join('\n')).to.contain('answered a body of 2048 bytes, more than the 1024 bytes allowed');
      });

      it('refuses oversized metadata the same way (503, reported)', async () => {
        const errors: string[] = [];
        const bloated: typeof fetch = async () => new Response(JSON.stringify({ issuer: as.issuer, jwks_uri: keysUrl, padding: 'x'.repeat(4096) }), { status: 200 });
        const server = resourceServer({ fetch: bloated, maxDocumentBytes: 1024, diagnostics: { ...SILENT_DIAGNOSTICS, error: (message) => { errors.push(message); } } });
        expect(await decide(server, await as.token({ resource: RESOURCE }))).to.deep.include({ allow: false, status: 503 });
        expect(errors.join('\n')).to.contain('more than the 1024 bytes allowed (maxDocumentBytes)');
      });
    });
  });

  describe('#metadata', () => {
    it('describes the resource, its authorization server and its scopes (RFC 9728)', () => {
      const server = resourceServer({ requiredScopes: ['notes:read'], scopesSupported: ['notes:write'], resourceName: 'Notes' });
      expect(server.metadata(undefined, ['notes:read', 'notes:admin'])).to.deep.equal({
        resource: RESOURCE,
        authorization_servers: [as.issuer],
        scopes_supported: ['notes:write', 'notes:read', 'notes:admin'],
        bearer_methods_supported: ['header'],
        resource_name: 'Notes',
      });
      expect(server.resourceMetadataUrl).to.equal(METADATA_URL);
    });
  });

  context('when the options are unsafe', () => {
    it('refuses them at once, every problem named', () => {
      expect(() => oauthResourceServer({ issuer: 'http://auth.example.com', audience: '', algorithms: ['none', 'HS256', 'RS256'], requiredScopes: ['has space'] }))
        .to.throw(PhantomError)
        .with.property('message')
        .that.contains('issuer must be an https URL')
        .and.contains('audience must be a non-empty string')
        .and.contains('algorithm "none" is refused')
        .and.contains('algorithm "HS256" is refused')
        .and.contains('"has space" is not a scope');
    });

    it('refuses a challengeScopes entry that is not a scope: it would go into a header', () => {
      expect(() => oauthResourceServer({ issuer: 'https://auth.example.com', audience: 'https://api.example.com/mcp', challengeScopes: ['ok', 'quo"te'] }))
        .to.throw(PhantomError, 'challengeScopes: "quo\\"te" is not a scope');
    });
  });
});
