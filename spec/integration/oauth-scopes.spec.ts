import 'reflect-metadata';
import { expect } from 'chai';
import { Context, PhantomServer, SILENT_DIAGNOSTICS, Tool } from '../../lib';
import { oauthResourceServer, type OAuthResourceServer } from '../../lib/entries/oauth';
import { AuthorizationServerFixture } from '../support/authorization-server.fixture';

const RESOURCE = 'http://127.0.0.1:3000/mcp';

class Notes {
  @Tool({ description: 'Read the notes', scopes: ['notes:read'] })
  notes_read(_: unknown, ctx: Context) {
    return { subject: ctx.auth!.subject, scopes: [...ctx.auth!.scopes] };
  }

  @Tool({ description: 'Write a note', scopes: ['notes:write'] })
  notes_write() {
    return 'written';
  }
}

describe('a token of a real authorization server, through oauthResourceServer, to scoped tools', () => {
  let as: AuthorizationServerFixture;
  let auth: OAuthResourceServer;
  const server = new PhantomServer({ name: 'notes', version: '1.0.0', providers: [Notes], diagnostics: SILENT_DIAGNOSTICS });

  before(async () => {
    as = await AuthorizationServerFixture.start();
    auth = oauthResourceServer({ issuer: as.issuer, audience: RESOURCE, diagnostics: SILENT_DIAGNOSTICS });
  });
  after(async () => { await as.close(); });

  /** What the HTTP layer does with the hook's decision: its principal goes into the call's context. */
  async function callAs(scope: string, tool: string) {
    const decision = await auth.authenticate({ method: 'POST', url: '/mcp', headers: { authorization: `Bearer ${await as.token({ resource: RESOURCE, scope })}` } });
    if (!decision.allow) throw new Error(`refused: ${JSON.stringify(decision)}`);
    return server.handle('tools/call', { name: tool, arguments: {} }, new Context({ principal: decision.principal }));
  }

  it('serves a tool whose scopes the token grants, the handler seeing the subject and scopes', async () => {
    expect(await callAs('notes:read', 'notes_read')).to.have.deep.nested.property('result.structuredContent', { subject: 'jwt-client', scopes: ['notes:read'] });
  });

  it('refuses a tool whose scopes it does not grant, naming them', async () => {
    expect(await callAs('notes:read', 'notes_write')).to.have.deep.nested.property('error.data', { requiredScopes: ['notes:write'], missingScopes: ['notes:write'] });
  });
});
