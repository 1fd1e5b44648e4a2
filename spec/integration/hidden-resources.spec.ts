import 'reflect-metadata';
import { expect } from 'chai';
import type { McpError } from '@modelcontextprotocol/sdk/types.js';
import { PhantomServer, Resource, scopesVisibility, SILENT_DIAGNOSTICS, type AuthInfo, type VisibleItem } from '../../lib';
import type { HttpListener } from '../../lib/entries/http';
import { openSession, openSse, post } from './support/raw-http';
import { connectHttp } from './support/sdk-clients';
import { meta } from './support/stateless-client';

class Library {
  @Resource('public://doc', { description: 'Everyone may read it' })
  publicDoc() { return 'public'; }

  @Resource('secret://doc', { description: 'Only granted users may read it' })
  secretDoc() { return 'secret'; }

  @Resource('vault://{id}', { description: 'Documents whose template only granted users may see', list: 'vaultDocuments' })
  vault({ id }: { id: string }) { return `vault ${id}`; }

  vaultDocuments() { return [{ uri: 'vault://7', name: 'seven' }]; }
}

/** Users who may see the secret document and the vault template; the rest see neither. */
const granted = new Set<string>();

function secret(item: VisibleItem): boolean {
  return (item.kind === 'resource' && item.uri.startsWith('secret://')) || (item.kind === 'template' && item.uriTemplate.startsWith('vault://'));
}

describe('hidden resources', () => {
  let server: PhantomServer;
  let listener: HttpListener;
  let url: string;

  before(async () => {
    server = new PhantomServer({
      name: 'library', version: '1', providers: [Library], diagnostics: SILENT_DIAGNOSTICS,
      visible: (item, principal) => !secret(item) || granted.has((principal as { sub: string }).sub),
    });
    listener = await server.listen({ port: 0, authenticate: ({ headers }) => ({ allow: true, principal: { sub: String(headers['x-user']) } }) });
    url = listener.url;
  });

  beforeEach(() => {
    granted.clear();
    granted.add('ada');
  });

  after(async () => {
    await listener.close();
    await server.close();
  });

  describe('resources/list', () => {
    const listed = async (user: string) => {
      const { client } = await connectHttp(url, {}, { 'x-user': user });
      const { resources } = await client.listResources();
      await client.close();
      return resources.map((r) => r.uri);
    };

    context('when the template that serves a listed URI is hidden from the caller', () => {
      it('leaves the URI out, as resources/read answers it unknown', async () => {
        expect(await listed('eve')).to.deep.equal(['public://doc']);
      });
    });

    context('when the caller may see the URIs and their template', () => {
      it('lists them all', async () => {
        expect(await listed('ada')).to.deep.equal(['public://doc', 'secret://doc', 'vault://7']);
      });
    });
  });

  describe('resources/subscribe (session era)', () => {
    const failureOf = (promise: Promise<unknown>) => promise.then(() => expect.fail('expected an error'), (error: McpError) => ({ code: error.code, message: error.message, data: error.data }));

    context('when the caller may not see the resource', () => {
      it('answers -32002 with data.uri, exactly as resources/read does', async () => {
        const { client } = await connectHttp(url, {}, { 'x-user': 'eve' });
        const read = await failureOf(client.readResource({ uri: 'secret://doc' }));
        const subscribe = await failureOf(client.subscribeResource({ uri: 'secret://doc' }));
        expect(subscribe).to.deep.equal(read);
        expect(subscribe.code).to.equal(-32002);
        expect(subscribe.data).to.deep.equal({ uri: 'secret://doc' });
        await client.close();
      });
    });

    context('when the URI is visible but the template that serves it is not', () => {
      it('answers -32002', async () => {
        const { client } = await connectHttp(url, {}, { 'x-user': 'eve' });
        expect((await failureOf(client.subscribeResource({ uri: 'vault://7' }))).code).to.equal(-32002);
        await client.close();
      });
    });

    context('when nothing serves the resource', () => {
      it('answers -32002, as for a hidden one', async () => {
        const { client } = await connectHttp(url, {}, { 'x-user': 'ada' });
        const read = await failureOf(client.readResource({ uri: 'nothing://here' }));
        expect(await failureOf(client.subscribeResource({ uri: 'nothing://here' }))).to.deep.equal(read);
        await client.close();
      });
    });

    context('when the caller may see the resource', () => {
      it('subscribes', async () => {
        const { client } = await connectHttp(url, {}, { 'x-user': 'ada' });
        expect(await client.subscribeResource({ uri: 'secret://doc' })).to.deep.equal({});
        expect(await client.subscribeResource({ uri: 'vault://7' })).to.deep.equal({});
        await client.close();
      });
    });
  });

  describe('resource updates', () => {
    context('when the resource was hidden from a session after it subscribed', () => {
      it('no longer reach that session\'s GET stream', async () => {
        granted.add('eve');
        const headers = { 'x-user': 'eve' };
        const session = await openSession(url, headers);
        for (const [id, uri] of [[2, 'secret://doc'], [3, 'public://doc']] as const) {
          expect((await post(url, { jsonrpc: '2.0', id, method: 'resources/subscribe', params: { uri } }, { ...headers, 'mcp-session-id': session })).json.result).to.deep.equal({});
        }
        const stream = await openSse(url, { headers: { ...headers, accept: 'text/event-stream', 'mcp-session-id': session } });
        granted.delete('eve');
        await server.resourceUpdated('secret://doc');
        await server.resourceUpdated('public://doc');
        expect((await stream.next()).params).to.deep.equal({ uri: 'public://doc' });
        stream.close();
      });
    });

    context('when a stateless subscriptions/listen stream asks for a hidden resource', () => {
      const listen = (user: string) => openSse(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'subscriptions/listen', 'x-user': user },
        body: JSON.stringify({ jsonrpc: '2.0', id: `listen-${user}`, method: 'subscriptions/listen', params: { _meta: meta(), notifications: { resourceSubscriptions: ['secret://doc', 'public://doc'] } } }),
      });

      it('never carries its updates to a caller who may not see it, and carries them to one who may', async () => {
        const eve = await listen('eve');
        const ada = await listen('ada');
        expect((await eve.next()).method).to.equal('notifications/subscriptions/acknowledged');
        expect((await ada.next()).method).to.equal('notifications/subscriptions/acknowledged');
        await server.resourceUpdated('secret://doc');
        await server.resourceUpdated('public://doc');
        expect((await eve.next()).params.uri).to.equal('public://doc');
        expect((await ada.next()).params.uri).to.equal('secret://doc');
        expect((await ada.next()).params.uri).to.equal('public://doc');
        eve.close();
        ada.close();
      });
    });
  });

  describe('resources/subscribe on a session whose token changed (the same subject, other scopes)', () => {
    class Notes {
      @Resource('notes://all', { description: 'Every note', scopes: ['notes:read'] })
      all() { return 'notes'; }
    }

    /** An AuthInfo of one subject with the scopes the request names in x-scopes: a refreshed token of the same principal. */
    const tokenOf = (scopes: string): AuthInfo => ({ subject: 'ada', issuer: 'https://as.example', scopes: scopes.split(' ').filter(Boolean), audience: [], claims: {} });
    let scoped: PhantomServer;
    let scopedUrl: string;

    before(async () => {
      scoped = new PhantomServer({ name: 'notes', version: '1', providers: [Notes], visible: scopesVisibility(), diagnostics: SILENT_DIAGNOSTICS });
      scopedUrl = (await scoped.listen({ port: 0, authenticate: ({ headers }) => ({ allow: true, principal: tokenOf(String(headers['x-scopes'] ?? '')) }) })).url;
    });
    after(() => scoped.close());

    const subscribe = (session: string, scopes: string) =>
      post(scopedUrl, { jsonrpc: '2.0', id: 2, method: 'resources/subscribe', params: { uri: 'notes://all' } }, { 'x-scopes': scopes, 'mcp-session-id': session });

    it('is decided by this request\'s token: allowed after a step-up to the scope', async () => {
      const session = await openSession(scopedUrl, { 'x-scopes': '' });
      expect((await subscribe(session, 'notes:read')).json).to.have.property('result');
    });

    it('is decided by this request\'s token: refused once the token no longer grants the scope', async () => {
      const session = await openSession(scopedUrl, { 'x-scopes': 'notes:read' });
      expect((await subscribe(session, '')).json).to.have.nested.property('error.code', -32002);
    });
  });

  describe('a resource that declares scopes, without a visibility rule', () => {
    class Notes {
      @Resource('notes://all', { description: 'Every note', scopes: ['notes:read'] })
      all() { return 'notes'; }

      @Resource('notes://public', { description: 'The public note' })
      open() { return 'public'; }
    }

    const tokenOf = (scopes: string): AuthInfo => ({ subject: 'ada', issuer: 'https://as.example', scopes: scopes.split(' ').filter(Boolean), audience: [], claims: {} });
    let scoped: PhantomServer;
    let scopedUrl: string;

    before(async () => {
      scoped = new PhantomServer({ name: 'notes', version: '1', providers: [Notes], diagnostics: SILENT_DIAGNOSTICS });
      scopedUrl = (await scoped.listen({ port: 0, authenticate: ({ headers }) => ({ allow: true, principal: tokenOf(String(headers['x-scopes'] ?? '')) }) })).url;
    });
    after(() => scoped.close());

    it('refuses resources/subscribe without the scope as resources/read does: 403 insufficient_scope, naming it', async () => {
      const session = await openSession(scopedUrl, { 'x-scopes': '' });
      const reply = await post(scopedUrl, { jsonrpc: '2.0', id: 2, method: 'resources/subscribe', params: { uri: 'notes://all' } }, { 'x-scopes': '', 'mcp-session-id': session });
      expect(reply.status).to.equal(403);
      expect(reply.json).to.have.nested.property('error.code', -32003);
      expect(reply.json.error.data.requiredScopes).to.deep.equal(['notes:read']);
    });

    it('tells a listen stream of the update only when its token may read the resource', async () => {
      const heard = async (scopes: string) => {
        const controller = new AbortController();
        const response = await fetch(scopedUrl, {
          method: 'POST',
          signal: controller.signal,
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'subscriptions/listen', 'x-scopes': scopes },
          body: JSON.stringify({ jsonrpc: '2.0', id: 'l', method: 'subscriptions/listen', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} }, notifications: { resourceSubscriptions: ['notes://all', 'notes://public'] } } }),
        });
        return { reader: response.body!.pipeThrough(new TextDecoderStream()).getReader(), close: () => controller.abort() };
      };
      const reader = await heard('notes:read');
      const outsider = await heard('');
      let readerText = '';
      let outsiderText = '';
      try {
        // Both acknowledged before the update goes out.
        while (!readerText.includes('acknowledged')) readerText += (await reader.reader.read()).value;
        while (!outsiderText.includes('acknowledged')) outsiderText += (await outsider.reader.read()).value;
        await scoped.resourceUpdated('notes://all');
        await scoped.resourceUpdated('notes://public');
        const PUBLIC = '"uri":"notes://public"';
        while (!readerText.includes(PUBLIC)) readerText += (await reader.reader.read()).value;
        while (!outsiderText.includes(PUBLIC)) outsiderText += (await outsider.reader.read()).value;
        // In order: the reader heard both; the outsider only the resource it may read.
        expect(readerText.indexOf('"uri":"notes://all"')).to.be.above(-1).and.below(readerText.indexOf(PUBLIC));
        expect(outsiderText.slice(outsiderText.indexOf('acknowledged'))).not.to.include('"uri":"notes://all"');
      } finally {
        reader.close();
        outsider.close();
      }
    });
  });
});
