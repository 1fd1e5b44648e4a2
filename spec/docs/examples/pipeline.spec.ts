import 'reflect-metadata';
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Diagnostics, PhantomServer } from 'phantom-mcp';
import type { HttpListener } from 'phantom-mcp/http';
import { connect, expectToolError, textOf } from 'phantom-mcp/testing';
import { createServer, Timings, type Caller } from '../../../docs/examples/pipeline';
import { openSession, post } from '../../integration/support/raw-http';
import { call, meta } from '../../integration/support/stateless-client';
import { failureOf } from '../../support/failure-of';

const QUIET: Diagnostics = { info: () => {}, warn: () => {}, error: () => {} };
const STILL = () => 0; // the rate limit's clock, held still: no call is earned back
const ADA: Caller = { sub: 'ada', scopes: ['notes:write'] };
const BOB: Caller = { sub: 'bob', scopes: ['notes:write'] };
const WRITE = { name: 'write', arguments: { slug: 'welcome', text: 'Hello' } };

describe('docs/examples/pipeline.ts (the pipeline guide)', () => {
  const clients: Client[] = [];
  async function client(principal?: Caller, server: PhantomServer = createServer({ diagnostics: QUIET, now: STILL })): Promise<Client> {
    const made = await connect(server, { principal });
    clients.push(made);
    return made;
  }

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((made) => made.close()));
  });

  describe('the guard', () => {
    it('lets an editor through, and the handler reads what it set on the Context', async () => {
      expect(textOf(await (await client(ADA)).callTool(WRITE))).to.equal('ada saved welcome');
    });

    it('refuses a caller without a principal with the generic -32003', async () => {
      const failure = await failureOf((await client()).callTool({ name: 'count', arguments: {} }));
      expect(failure.code).to.equal(-32003);
      expect(failure.message).to.contain('Forbidden: tools/call of count was refused by a guard');
    });

    it('refuses a caller who is not an editor with -32003 and its own message, before the arguments are validated', async () => {
      const failure = await failureOf((await client(BOB)).callTool({ name: 'write', arguments: { slug: '' } }));
      expect(failure.code).to.equal(-32003);
      expect(failure.message).to.contain('bob may not use write');
    });
  });

  describe('scopes', () => {
    it('are checked before any guard: an editor without notes:write is told which scope is missing', async () => {
      const failure = await failureOf((await client({ sub: 'ada' })).callTool(WRITE));
      expect(failure.code).to.equal(-32003);
      expect(failure.data).to.deep.equal({ requiredScopes: ['notes:write'], missingScopes: ['notes:write'] });
    });
  });

  describe('the interceptor', () => {
    it('times a call that passed the guards and the pipe, and never sees arguments that failed', async () => {
      const server = createServer({ diagnostics: QUIET, now: STILL });
      const ada = await client(ADA, server);
      expectToolError(await ada.callTool({ name: 'write', arguments: { slug: '', text: 'x' } }), /slug/);
      await ada.callTool(WRITE);
      expect(server.container.resolve(Timings).calls.map(({ call: made }) => made)).to.deep.equal(['tools/call write']);
    });
  });

  describe('the server\'s members', () => {
    it('run before the class\'s guard: refused calls use up the rate limit too, and the 21st is -32029', async () => {
      const anonymous = await client();
      for (let i = 0; i < 20; i += 1) expect((await failureOf(anonymous.callTool({ name: 'count', arguments: {} }))).code).to.equal(-32003);
      await anonymous.ping(); // ping does not count
      const limited = await failureOf(anonymous.callTool({ name: 'count', arguments: {} }));
      expect(limited.code).to.equal(-32029);
      expect(limited.data).to.have.property('retryAfterMs').that.is.a('number');
    });

    it('write one log line per operation to the server\'s diagnostics', async () => {
      const lines: string[] = [];
      const ada = await client(ADA, createServer({ diagnostics: { ...QUIET, info: (line) => lines.push(line) }, now: STILL }));
      await ada.callTool({ name: 'count', arguments: {} });
      expect(lines).to.have.length(1);
      expect(lines[0]).to.match(/^tools\/call count \(session [0-9a-f]{8}\) ok in \d+\.\d ms$/);
    });
  });

  describe('on the wire, over HTTP', () => {
    let server: PhantomServer;
    let listener: HttpListener;
    const as = (caller: Caller) => ({ 'x-caller': JSON.stringify(caller) });

    before(async () => {
      server = createServer({ diagnostics: QUIET, now: STILL });
      // The principal comes from a header here; in production, from a verified token.
      listener = await server.listen({ port: 0, authenticate: ({ headers }) => ({ allow: true, principal: JSON.parse(String(headers['x-caller'])) }) });
    });

    after(async () => {
      await listener.close();
      await server.close();
    });

    async function sessionCall(caller: Caller, params: Record<string, unknown>) {
      const sessionId = await openSession(listener.url, as(caller));
      return post(listener.url, { jsonrpc: '2.0', id: 2, method: 'tools/call', params }, { ...as(caller), 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' });
    }

    it('a guard\'s refusal: 200 in the session era, 403 in the stateless era, -32003 in both', async () => {
      const session = await sessionCall(BOB, WRITE);
      expect(session.status).to.equal(200);
      expect(session.json.error).to.deep.equal({ code: -32003, message: 'bob may not use write' });
      const stateless = await call(listener.url, 'tools/call', { ...WRITE, _meta: meta() }, as(BOB));
      expect(stateless.status).to.equal(403);
      expect(stateless.body.error).to.deep.equal({ code: -32003, message: 'bob may not use write' });
    });

    it('a missing scope: 403 with a WWW-Authenticate challenge naming it, in both eras', async () => {
      const session = await sessionCall({ sub: 'ada' }, WRITE);
      expect(session.status).to.equal(403);
      expect(session.headers.get('www-authenticate')).to.equal('Bearer error="insufficient_scope", scope="notes:write"');
      const stateless = await call(listener.url, 'tools/call', { ...WRITE, _meta: meta() }, as({ sub: 'ada' }));
      expect(stateless.status).to.equal(403);
      expect(stateless.body.error.code).to.equal(-32003);
    });

    it('the rate limit: 429 and -32029 in the stateless era', async () => {
      const carol = as({ sub: 'carol' }); // without a session, the bucket is the principal's
      const statuses: number[] = [];
      for (let i = 0; i < 21; i += 1) statuses.push((await call(listener.url, 'tools/call', { name: 'count', arguments: {}, _meta: meta() }, carol)).status);
      expect(statuses.slice(0, 20).every((status) => status === 403)).to.equal(true); // carol is no editor
      expect(statuses[20]).to.equal(429);
    });
  });
});
