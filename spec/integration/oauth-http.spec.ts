import 'reflect-metadata';
import { expect } from 'chai';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { extractWWWAuthenticateParams, UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { newClient } from './support/sdk-clients';
import { Context, PhantomError, PhantomServer, Prompt, ScopeGuard, scopesVisibility, SILENT_DIAGNOSTICS, Tool, type Visibility } from '../../lib';
import { oauthResourceServer, type OAuthResourceServer, type OAuthResourceServerOptions } from '../../lib/entries/oauth';
import { AS_CLIENTS, AuthorizationServerFixture } from '../support/authorization-server.fixture';
import { bearer, claims, connectWithClientCredentials, freePort } from './support/oauth-http';
import { connect } from 'phantom-mcp/testing';
import { call, meta, VERSION } from './support/stateless-client';
import { INITIALIZE, openSession, post, send } from './support/raw-http';

class Notes {
  @Tool({ description: 'Read the notes', scopes: ['notes:read'] })
  notes_read(_: unknown, ctx: Context) {
    return { subject: ctx.auth!.subject, scopes: [...ctx.auth!.scopes] };
  }

  @Tool({ description: 'Write a note', scopes: ['notes:write'] })
  notes_write(_: unknown, ctx: Context) {
    return { written: true, scopes: [...ctx.auth!.scopes] };
  }

  @Tool({ description: 'Delete every note', scopes: ['notes:admin'] })
  notes_purge() {
    return 'purged';
  }
}

/** Every tool and prompt needs `notes:read`; one needs `notes:write` besides. */
class Ledger {
  @Tool({ description: 'The balance', scopes: ['notes:read'] })
  balance() {
    return 42;
  }

  @Tool({ description: 'Book an entry', scopes: ['notes:write', 'notes:read'] })
  book() {
    return 'booked';
  }

  @Prompt({ description: 'Summarise the ledger', scopes: ['notes:read'] })
  summary() {
    return 'Summarise the ledger';
  }
}

/**
 * A pre-registered authorization-code client of the official SDK that stops where a browser would
 * take over: it keeps the authorization URL the SDK built (with the scope it chose) instead.
 */
class BrowserlessProvider implements OAuthClientProvider {
  authorizationUrl?: URL;
  readonly redirectUrl = 'http://127.0.0.1/callback';
  readonly clientMetadata = { redirect_uris: ['http://127.0.0.1/callback'], client_name: 'spec' };
  clientInformation() { return { client_id: 'spec-browser-client' }; }
  tokens() { return undefined; }
  saveTokens() { /* no token is ever issued here */ }
  redirectToAuthorization(url: URL) { this.authorizationUrl = url; }
  saveCodeVerifier() { /* kept by nobody: the flow stops at the redirect */ }
  codeVerifier() { return 'unused'; }
}

/** notes_purge is hidden from tokens without its scope; the other scoped tools are listed to all (a step-up). */
const PURGE_HIDDEN: Visibility = (item, principal) => item.kind !== 'tool' || item.name !== 'notes_purge' || scopesVisibility()(item, principal);

const TOOLS_CALL = (name: string, id = 2) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: {} } });

/** `alg: none`: a header and claims, no signature. */
function unsigned(payload: object): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'none', typ: 'at+jwt' })}.${part(payload)}.`;
}

describe('PhantomServer#listen', () => {
  context('with auth: oauthResourceServer(...) of a real authorization server', () => {
    let as: AuthorizationServerFixture;
    let auth: OAuthResourceServer;
    let server: PhantomServer;
    let url: string;
    let metadataUrl: string;

    before(async () => {
      as = await AuthorizationServerFixture.start();
      const port = await freePort();
      url = `http://127.0.0.1:${port}/mcp`;
      metadataUrl = `http://127.0.0.1:${port}/.well-known/oauth-protected-resource/mcp`;
      // No cooldown: each spec's unknown key fetches the key set again.
      auth = oauthResourceServer({ issuer: as.issuer, audience: url, jwksCooldownSec: 0, diagnostics: SILENT_DIAGNOSTICS });
      server = new PhantomServer({ name: 'notes', version: '1.0.0', providers: [Notes], visible: PURGE_HIDDEN, diagnostics: SILENT_DIAGNOSTICS });
      await server.listen({ port, auth });
    });
    after(async () => {
      await server.close();
      await as.close();
    });

    const token = (scope: string) => as.token({ resource: url, scope });

    describe('the protected-resource metadata', () => {
      it('is served without a token at the path-suffixed well-known URL, listing the scopes the decorators declare', async () => {
        const reply = await send(metadataUrl, 'GET');
        expect(reply.status).to.equal(200);
        expect(reply.headers.get('access-control-allow-origin')).to.equal('*');
        expect(reply.json).to.deep.equal({
          resource: url, authorization_servers: [as.issuer], scopes_supported: ['notes:read', 'notes:write', 'notes:admin'], bearer_methods_supported: ['header'],
        });
      });

      it('is served at the root well-known URL too', async () => {
        const reply = await send(new URL('/.well-known/oauth-protected-resource', url).href, 'GET');
        expect(reply.status).to.equal(200);
        expect(reply.json.resource).to.equal(url);
      });

      it('answers a CORS preflight, and methods other than GET and HEAD with 405', async () => {
        const preflight = await send(metadataUrl, 'OPTIONS', { origin: 'https://inspector.example', 'access-control-request-method': 'GET' });
        expect(preflight.status).to.equal(204);
        expect(preflight.headers.get('access-control-allow-origin')).to.equal('*');
        expect((await send(metadataUrl, 'POST')).status).to.equal(405);
      });
    });

    describe('the official client with ClientCredentialsProvider', () => {
      it('discovers everything from the 401, gets a token for this resource and calls a tool', async () => {
        const { client } = await connectWithClientCredentials(url, as, 'notes:read notes:admin');
        const tools = (await client.listTools()).tools.map((tool) => tool.name);
        const read = await client.callTool({ name: 'notes_read' });
        await client.close();
        expect(tools).to.have.members(['notes_read', 'notes_write', 'notes_purge']);
        expect(read.structuredContent).to.deep.equal({ subject: AS_CLIENTS.jwt.id, scopes: ['notes:read', 'notes:admin'] });
      });

      it('gets a 403 it cannot get past for a tool whose scope its token lacks', async () => {
        const { client } = await connectWithClientCredentials(url, as, 'notes:read');
        const error = await client.callTool({ name: 'notes_write' }).catch((e: unknown) => e);
        await client.close();
        expect(error).to.be.instanceOf(StreamableHTTPError).and.have.property('code', 403);
      });
    });

    describe('a step-up in the session era', () => {
      it('a 403 naming the scope; a new token with it, of the same subject, on the same session, passes', async () => {
        const first = bearer(await token('notes:read'));
        const session = await openSession(url, first);
        const refused = await post(url, TOOLS_CALL('notes_write'), { ...first, 'mcp-session-id': session });
        const scope = /scope="([^"]+)"/.exec(refused.headers.get('www-authenticate') ?? '')?.[1];
        expect(refused.status).to.equal(403);
        expect(scope).to.equal('notes:write');
        const stepped = await post(url, TOOLS_CALL('notes_write', 3), { ...bearer(await token(scope!)), 'mcp-session-id': session });
        expect(stepped.status).to.equal(200);
        expect(stepped.json.result.structuredContent).to.deep.equal({ written: true, scopes: ['notes:write'] });
      });
    });

    describe('a request without a usable token', () => {
      it('without a token: 401 naming the metadata URL', async () => {
        const reply = await post(url, INITIALIZE);
        expect(reply.status).to.equal(401);
        expect(reply.headers.get('www-authenticate')).to.equal(`Bearer resource_metadata="${metadataUrl}"`);
      });

      const refusals: [string, () => Promise<string>, string][] = [
        ['expired', () => as.sign(claims(as, url, { iat: Math.floor(Date.now() / 1000) - 7200, exp: Math.floor(Date.now() / 1000) - 3600 })), 'The access token expired'],
        ['for another resource', () => as.token({ resource: 'http://127.0.0.1:9/other', scope: 'notes:read' }), 'The access token was not issued for this resource'],
        ['of another issuer', () => as.sign(claims(as, url, { iss: 'http://127.0.0.1:9' })), 'The access token was not issued by the expected authorization server'],
        ['signed with alg none', async () => unsigned(claims(as, url)), 'The access token is signed with an algorithm this resource does not accept'],
        ['with a tampered signature', async () => {
          const [header, payload, signature] = (await token('notes:read')).split('.');
          return `${header}.${payload}.${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`;
        }, 'The access token signature is invalid'],
        ['with a tampered payload', async () => {
          const [header, , signature] = (await token('notes:read')).split('.');
          return `${header}.${Buffer.from(JSON.stringify(claims(as, url, { scope: 'notes:admin' }))).toString('base64url')}.${signature}`;
        }, 'The access token signature is invalid'],
        ['signed by a key the authorization server does not publish', async () => {
          const { privateKey } = await generateKeyPair('RS256');
          return new SignJWT(claims(as, url)).setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: 'nobody' }).sign(privateKey);
        }, 'The access token is signed with a key the authorization server does not publish'],
      ];
      for (const [what, tokenOf, description] of refusals) {
        it(`${what}: 401 invalid_token, saying why, naming the metadata URL`, async () => {
          const reply = await post(url, INITIALIZE, bearer(await tokenOf()));
          expect(reply.status).to.equal(401);
          expect(reply.headers.get('www-authenticate')).to.equal(`Bearer resource_metadata="${metadataUrl}", error="invalid_token", error_description="${description}"`);
        });
      }

      it('signed by a key published after a rotation: the key set is fetched again and the token accepted', async () => {
        await post(url, INITIALIZE, bearer(await token('notes:read')));
        const kid = await as.rotateKeys();
        const rotated = await token('notes:read');
        expect(JSON.parse(Buffer.from(rotated.split('.')[0], 'base64url').toString()).kid).to.equal(kid);
        expect((await post(url, INITIALIZE, bearer(rotated))).status).to.equal(200);
      });

      it('signed by a key the token carries in its own header (jwk): 401', async () => {
        const { privateKey, publicKey } = await generateKeyPair('RS256');
        const forged = await new SignJWT(claims(as, url)).setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', jwk: await exportJWK(publicKey) }).sign(privateKey);
        expect((await post(url, INITIALIZE, bearer(forged))).status).to.equal(401);
      });
    });

    describe('a call that needs a scope the token lacks', () => {
      it('in the session era: 403 on that POST, with insufficient_scope and the scope named', async () => {
        const headers = bearer(await token('notes:read'));
        const session = await openSession(url, headers);
        const reply = await post(url, TOOLS_CALL('notes_write'), { ...headers, 'mcp-session-id': session });
        expect(reply.status).to.equal(403);
        expect(reply.headers.get('www-authenticate')).to.equal(`Bearer resource_metadata="${metadataUrl}", error="insufficient_scope", scope="notes:write"`);
        expect(reply.json.error).to.deep.include({ code: -32003, data: { requiredScopes: ['notes:write'], missingScopes: ['notes:write'] } });
        expect(reply.headers.get('mcp-session-id')).to.equal(session);
      });

      it('in the stateless era: 403, with insufficient_scope and the scope named', async () => {
        const response = await fetch(url, {
          method: 'POST',
          headers: { ...bearer(await token('notes:read')), 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'notes_write' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'notes_write', arguments: {}, _meta: meta() } }),
        });
        expect(response.status).to.equal(403);
        expect(response.headers.get('www-authenticate')).to.equal(`Bearer resource_metadata="${metadataUrl}", error="insufficient_scope", scope="notes:write"`);
        expect(((await response.json()) as { error: { code: number } }).error.code).to.equal(-32003);
      });
    });

    describe('a call whose scopes the token grants', () => {
      it('is served in the stateless era, the handler seeing the token\'s scopes', async () => {
        const reply = await call(url, 'tools/call', { name: 'notes_write', arguments: {}, _meta: meta() }, bearer(await token('notes:write')));
        expect(reply.status).to.equal(200);
        expect(reply.body.result.structuredContent).to.deep.equal({ written: true, scopes: ['notes:write'] });
      });
    });

    describe('a tool hidden from tokens without its scope', () => {
      it('is not listed, and a call to it is answered as an unknown tool (not 403), in both eras', async () => {
        const headers = bearer(await token('notes:read'));
        const session = await openSession(url, headers);
        const list = await post(url, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, { ...headers, 'mcp-session-id': session });
        expect(list.json.result.tools.map((tool: { name: string }) => tool.name)).to.have.members(['notes_read', 'notes_write']);
        const session_call = await post(url, TOOLS_CALL('notes_purge', 3), { ...headers, 'mcp-session-id': session });
        expect(session_call.status).to.equal(200);
        expect(session_call.json.error).to.deep.equal({ code: -32602, message: 'Unknown tool: notes_purge' });
        const stateless = await call(url, 'tools/call', { name: 'notes_purge', arguments: {}, _meta: meta() }, headers);
        expect(stateless.status).to.equal(200);
        expect(stateless.body.error).to.deep.equal({ code: -32602, message: 'Unknown tool: notes_purge' });
      });
    });

    describe('a session', () => {
      it('reused with another subject\'s token: 403', async () => {
        const session = await openSession(url, bearer(await token('notes:read')));
        const mallory = await as.sign(claims(as, url, { sub: 'mallory', client_id: 'mallory' }));
        const reply = await post(url, TOOLS_CALL('notes_read'), { ...bearer(mallory), 'mcp-session-id': session });
        expect(reply.status).to.equal(403);
        expect(reply.json.error.message).to.match(/another principal/);
      });

      it('used with a refreshed token of the same subject: kept, the call seeing the new token', async () => {
        const session = await openSession(url, bearer(await token('notes:read')));
        const refreshed = await token('notes:read notes:write');
        const reply = await post(url, TOOLS_CALL('notes_read'), { ...bearer(refreshed), 'mcp-session-id': session });
        expect(reply.status).to.equal(200);
        expect(reply.json.result.structuredContent).to.deep.equal({ subject: AS_CLIENTS.jwt.id, scopes: ['notes:read', 'notes:write'] });
      });
    });

    describe('over a pipe (in-process)', () => {
      it('leaves the JSON-RPC error of a scoped call as it is', async () => {
        const client = await connect(server);
        const error = await client.callTool({ name: 'notes_read' }).catch((e: unknown) => e);
        await client.close();
        expect(error).to.not.be.instanceOf(StreamableHTTPError);
        expect(error).to.have.property('code', -32003);
      });
    });
  });

  context('with auth whose authorization server cannot be reached', () => {
    let server: PhantomServer;
    let url: string;

    before(async () => {
      const port = await freePort();
      url = `http://127.0.0.1:${port}/mcp`;
      const auth = oauthResourceServer({ issuer: `http://127.0.0.1:${await freePort()}`, audience: url, retryAfterSec: 7, diagnostics: SILENT_DIAGNOSTICS });
      server = new PhantomServer({ name: 'notes', version: '1.0.0', providers: [Notes], diagnostics: SILENT_DIAGNOSTICS });
      await server.listen({ port, auth });
    });
    after(() => server.close());

    it('answers a JWT with 503 and Retry-After: the token may be fine, nothing could check it', async () => {
      const now = Math.floor(Date.now() / 1000);
      const { privateKey } = await generateKeyPair('RS256');
      const jwt = await new SignJWT({ sub: 'someone', aud: url, exp: now + 60 }).setProtectedHeader({ alg: 'RS256', kid: 'k' }).sign(privateKey);
      const reply = await post(url, INITIALIZE, bearer(jwt));
      expect(reply.status).to.equal(503);
      expect(reply.headers.get('retry-after')).to.equal('7');
      expect(reply.headers.get('www-authenticate')).to.equal(null);
    });
  });

  context('with auth requiring a scope of every request', () => {
    let as: AuthorizationServerFixture;
    let server: PhantomServer;
    let url: string;

    before(async () => {
      as = await AuthorizationServerFixture.start();
      const port = await freePort();
      url = `http://127.0.0.1:${port}/mcp`;
      const auth = oauthResourceServer({ issuer: as.issuer, audience: url, requiredScopes: ['notes:admin'], diagnostics: SILENT_DIAGNOSTICS });
      server = new PhantomServer({ name: 'notes', version: '1.0.0', providers: [Notes], diagnostics: SILENT_DIAGNOSTICS });
      await server.listen({ port, auth });
    });
    after(async () => {
      await server.close();
      await as.close();
    });

    it('answers a token without it with 403 and the challenge naming it', async () => {
      const reply = await post(url, INITIALIZE, bearer(await as.token({ resource: url, scope: 'notes:read' })));
      expect(reply.status).to.equal(403);
      expect(reply.headers.get('www-authenticate')).to.match(/^Bearer resource_metadata="[^"]+", error="insufficient_scope", scope="notes:admin"$/);
    });
  });

  context('with auth on a server whose every operation needs scopes', () => {
    let as: AuthorizationServerFixture;
    let server: PhantomServer;
    let port: number;

    before(async () => { as = await AuthorizationServerFixture.start(); });
    after(async () => { await as.close(); });
    afterEach(async () => { await server.close(); });

    /** Serves Ledger behind `auth` with `options` (default: `requiredScopes: ['notes:admin']`), and `guards` on every operation. */
    async function serve(options: Partial<OAuthResourceServerOptions> = {}, ...guards: ScopeGuard[]): Promise<string> {
      port = await freePort();
      const url = `http://127.0.0.1:${port}/mcp`;
      const auth = oauthResourceServer({ issuer: as.issuer, audience: url, requiredScopes: ['notes:admin'], diagnostics: SILENT_DIAGNOSTICS, ...options });
      server = new PhantomServer({ name: 'ledger', version: '1.0.0', providers: [Ledger], diagnostics: SILENT_DIAGNOSTICS });
      if (guards.length > 0) server.use(...guards);
      await server.listen({ port, auth });
      return url;
    }

    const challenge = (scope?: string, error = '') => `Bearer resource_metadata="http://127.0.0.1:${port}/.well-known/oauth-protected-resource/mcp"${error}${scope === undefined ? '' : `, scope="${scope}"`}`;

    describe('a request without a token', () => {
      it('in the session era: 401 naming requiredScopes and the scopes every tool and prompt declares', async () => {
        const reply = await post(await serve(), INITIALIZE);
        expect(reply.status).to.equal(401);
        expect(reply.headers.get('www-authenticate')).to.equal(challenge('notes:admin notes:read'));
      });

      it('names the scopes of a ScopeGuard the server uses for every operation', async () => {
        const reply = await post(await serve({ requiredScopes: [] }, new ScopeGuard('notes:write')), INITIALIZE);
        expect(reply.headers.get('www-authenticate')).to.equal(challenge('notes:write notes:read'));
      });

      it('in the stateless era: the same 401', async () => {
        const body = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { _meta: meta(), name: 'balance', arguments: {} } };
        const reply = await post(await serve(), body, { 'mcp-protocol-version': VERSION, 'mcp-method': 'tools/call', 'mcp-name': 'balance' });
        expect(reply.status).to.equal(401);
        expect(reply.headers.get('www-authenticate')).to.equal(challenge('notes:admin notes:read'));
      });

      it('through fetchHandler: the same 401', async () => {
        const url = await serve();
        const handler = server.fetchHandler({ auth: oauthResourceServer({ issuer: as.issuer, audience: url, requiredScopes: ['notes:admin'], diagnostics: SILENT_DIAGNOSTICS }) });
        const reply = await handler(new Request(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify(INITIALIZE) }));
        expect(reply.status).to.equal(401);
        expect(reply.headers.get('www-authenticate')).to.equal(challenge('notes:admin notes:read'));
      });

      it('is read by the official SDK as the scope to ask for', async () => {
        const reply = await fetch(await serve(), { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify(INITIALIZE) });
        expect(extractWWWAuthenticateParams(reply).scope).to.equal('notes:admin notes:read');
      });

      it('sends the official client (authorization code) to the authorization server asking for those scopes only', async () => {
        const provider = new BrowserlessProvider();
        const client = newClient();
        const error = await client.connect(new StreamableHTTPClientTransport(new URL(await serve()), { authProvider: provider })).catch((e: unknown) => e);
        await client.close();
        expect(error).to.be.instanceOf(UnauthorizedError);
        expect(provider.authorizationUrl?.origin).to.equal(new URL(as.issuer).origin);
        expect(provider.authorizationUrl?.searchParams.get('scope')).to.equal('notes:admin notes:read');
      });

      context('when challengeScopes is set', () => {
        it('names those instead', async () => {
          const reply = await post(await serve({ challengeScopes: ['notes:read', 'notes:write'] }), INITIALIZE);
          expect(reply.headers.get('www-authenticate')).to.equal(challenge('notes:read notes:write'));
        });

        it('names none when it is empty', async () => {
          const reply = await post(await serve({ challengeScopes: [] }), INITIALIZE);
          expect(reply.headers.get('www-authenticate')).to.equal(challenge());
        });
      });
    });

    describe('a request with a refused token', () => {
      it('is answered 401 invalid_token naming the same scopes', async () => {
        const url = await serve();
        const reply = await post(url, INITIALIZE, bearer(await as.sign(claims(as, url, { iss: 'http://127.0.0.1:9' }))));
        expect(reply.status).to.equal(401);
        expect(reply.headers.get('www-authenticate')).to.equal(
          challenge('notes:admin notes:read', ', error="invalid_token", error_description="The access token was not issued by the expected authorization server"'),
        );
      });
    });

    describe('a token with the scopes the 401 named', () => {
      it('lists the tools and calls the one that needs no more', async () => {
        const url = await serve();
        const scope = extractWWWAuthenticateParams(await fetch(url, { method: 'POST', body: '{}' })).scope!;
        const headers = bearer(await as.token({ resource: url, scope }));
        const session = await openSession(url, headers);
        const listed = await post(url, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, { ...headers, 'mcp-session-id': session });
        const called = await post(url, TOOLS_CALL('balance', 3), { ...headers, 'mcp-session-id': session });
        expect(listed.json.result.tools.map((tool: { name: string }) => tool.name)).to.have.members(['balance', 'book']);
        expect(called.json.result.structuredContent ?? called.json.result.content).to.exist;
        expect(called.json.result.isError).to.not.equal(true);
      });
    });
  });

  context('with both auth and authenticate', () => {
    it('refuses to start: one endpoint has one way in', async () => {
      const server = new PhantomServer({ name: 'notes', version: '1.0.0', providers: [Notes], diagnostics: SILENT_DIAGNOSTICS });
      const auth = oauthResourceServer({ issuer: 'http://127.0.0.1:9', audience: 'http://127.0.0.1:9/mcp', diagnostics: SILENT_DIAGNOSTICS });
      const error = await server.listen({ port: 0, auth, authenticate: () => ({ allow: true }) }).catch((e: unknown) => e);
      await server.close();
      expect(error).to.be.instanceOf(PhantomError).and.have.property('code', 'http_auth_conflict');
    });
  });
});
