import 'reflect-metadata';
import { expect } from 'chai';
import { serveNotes, serveNotesWithApiKeys } from '../../../docs/examples/authorization';
import type { HttpListener } from '../../../lib/entries/http';
import { AuthorizationServerFixture } from '../../support/authorization-server.fixture';
import { freePort } from '../../support/free-port';
import { connectHttp } from '../../integration/support/sdk-clients';
import { openSession, post } from '../../integration/support/raw-http';

const CALL_WRITE = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'write', arguments: { slug: 'plan', text: 'Ship it' } } };

/** docs/guide/authorization.md, run as the page teaches: a real authorization server, real tokens. */
describe('docs/examples/authorization.ts (the authorization guide)', () => {
  let as: AuthorizationServerFixture;
  let notes: HttpListener;

  before(async () => {
    as = await AuthorizationServerFixture.start();
    notes = await serveNotes(as.issuer, await freePort());
  });

  after(async () => {
    await notes?.close();
    await as?.close();
  });

  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const metadataUrl = () => `http://127.0.0.1:${notes.port}/.well-known/oauth-protected-resource/mcp`;

  context('without a token', () => {
    it('answers 401 with a challenge naming the metadata and the scope every tool needs', async () => {
      const reply = await post(notes.url, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
      expect(reply.status).to.equal(401);
      expect(reply.headers.get('www-authenticate')).to.equal(`Bearer resource_metadata="${metadataUrl()}", scope="notes:read"`);
    });

    it('serves the protected resource metadata that names the authorization server', async () => {
      const response = await fetch(metadataUrl());
      expect(response.status).to.equal(200);
      const metadata = await response.json() as Record<string, unknown>;
      expect(metadata.resource).to.equal(notes.url);
      expect(metadata.authorization_servers).to.deep.equal([as.issuer]);
      expect(metadata.scopes_supported).to.have.members(['notes:read', 'notes:write']);
      expect(metadata.bearer_methods_supported).to.deep.equal(['header']);
    });
  });

  context('with a token of the authorization server, minted for this server', () => {
    it('serves the official client, and the tool reads a note', async () => {
      const token = await as.token({ resource: notes.url, scope: 'notes:read' });
      const { client } = await connectHttp(notes.url, {}, bearer(token));
      const result = await client.callTool({ name: 'read', arguments: { slug: 'welcome' } });
      expect(result.structuredContent).to.deep.equal({ text: 'Tokens carry scopes.', author: 'system' });
      await client.close();
    });

    it('signs a written note with the token\'s subject (ctx.auth)', async () => {
      const token = await as.token({ resource: notes.url, scope: 'notes:read notes:write' });
      const { client } = await connectHttp(notes.url, {}, bearer(token));
      const result = await client.callTool({ name: 'write', arguments: { slug: 'plan', text: 'Ship it' } });
      expect(result.structuredContent).to.deep.equal({ text: 'Ship it', author: 'jwt-client' });
      await client.close();
    });

    it('answers 403 insufficient_scope, naming the scopes the call needs, when the token lacks one', async () => {
      const token = await as.token({ resource: notes.url, scope: 'notes:read' });
      const session = await openSession(notes.url, bearer(token));
      const reply = await post(notes.url, CALL_WRITE, { ...bearer(token), 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' });
      expect(reply.status).to.equal(403);
      expect(reply.headers.get('www-authenticate')).to.equal(`Bearer resource_metadata="${metadataUrl()}", error="insufficient_scope", scope="notes:read notes:write"`);
      expect(reply.json.error.code).to.equal(-32003);
      expect(reply.json.error.data.missingScopes).to.deep.equal(['notes:write']);
    });
  });

  context('with a token refused', () => {
    it('answers 401 invalid_token to a token minted for another server', async () => {
      const token = await as.token({ resource: 'http://127.0.0.1:9/other', scope: 'notes:read' });
      const reply = await post(notes.url, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, bearer(token));
      expect(reply.status).to.equal(401);
      expect(reply.headers.get('www-authenticate')).to.equal(`Bearer resource_metadata="${metadataUrl()}", error="invalid_token", error_description="The access token was not issued for this resource", scope="notes:read"`);
    });

    it('answers 401 invalid_token to an expired token', async () => {
      const now = Math.floor(Date.now() / 1000);
      const token = await as.sign({ iss: as.issuer, aud: notes.url, sub: 'ada', scope: 'notes:read', iat: now - 3600, exp: now - 600 });
      const reply = await post(notes.url, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, bearer(token));
      expect(reply.status).to.equal(401);
      expect(reply.headers.get('www-authenticate')).to.equal(`Bearer resource_metadata="${metadataUrl()}", error="invalid_token", error_description="The access token expired", scope="notes:read"`);
    });
  });

  context('with the API-key authenticate hook instead', () => {
    let keyed: HttpListener;
    before(async () => {
      keyed = await serveNotesWithApiKeys(await freePort());
    });
    after(async () => {
      await keyed?.close();
    });

    it('refuses a request without a key with the hook\'s 401 and challenge', async () => {
      const reply = await post(keyed.url, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
      expect(reply.status).to.equal(401);
      expect(reply.headers.get('www-authenticate')).to.equal('ApiKey realm="notes"');
    });

    it('lets a known key in with the scopes it grants, and no further', async () => {
      const { client } = await connectHttp(keyed.url, {}, { 'x-api-key': 'k-7f3a' });
      const read = await client.callTool({ name: 'read', arguments: { slug: 'welcome' } });
      expect(read.structuredContent).to.deep.equal({ text: 'Tokens carry scopes.', author: 'system' });
      await client.close();
      const session = await openSession(keyed.url, { 'x-api-key': 'k-7f3a' });
      const write = await post(keyed.url, CALL_WRITE, { 'x-api-key': 'k-7f3a', 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' });
      expect(write.status).to.equal(403);
      expect(write.headers.get('www-authenticate')).to.equal('Bearer error="insufficient_scope", scope="notes:read notes:write"');
    });
  });
});
