import { expect } from 'chai';
import type { IncomingMessage } from 'node:http';
import type { Diagnostics, HttpOptions } from '../../../lib';
import type { AuthDecision } from '../../../lib/entries/http';
import { GuardAnswer, RequestGate, type RequestContext } from '../../../lib/transport/http/request-gate';

/** A request as the gate reads it: method, URL, headers, and the raw header list Node keeps. */
function request(method: string, headers: Array<[string, string]> = []): IncomingMessage {
  const all: Array<[string, string]> = headers.some(([name]) => name === 'Host') ? headers : [['Host', '127.0.0.1:3000'], ...headers];
  const folded: Record<string, string> = {};
  for (const [name, value] of all) folded[name.toLowerCase()] ??= value;
  return { method, url: '/mcp', headers: folded, rawHeaders: all.flat() } as unknown as IncomingMessage;
}

/** Diagnostics that remember their error lines. */
function recording(): Diagnostics & { errors: string[] } {
  const errors: string[] = [];
  return { errors, error: (message) => { errors.push(message); }, warn: () => undefined };
}

const VERBS = new Map([['GET', 'get'], ['POST', 'post'], ['DELETE', 'delete']]);
const ORIGIN = 'http://localhost:5173';

function gate(options: HttpOptions = {}, diagnostics = recording()): RequestGate<string> {
  return new RequestGate(VERBS, options, diagnostics);
}

async function answerOf(outcome: ReturnType<RequestGate<string>['check']>): Promise<GuardAnswer> {
  const settled = await outcome;
  expect(settled).to.be.instanceOf(GuardAnswer);
  return settled as GuardAnswer;
}

async function contextOf(outcome: ReturnType<RequestGate<string>['check']>): Promise<RequestContext<string>> {
  const settled = await outcome;
  expect(settled).not.to.be.instanceOf(GuardAnswer);
  return settled as RequestContext<string>;
}

describe('RequestGate', () => {
  describe('#check', () => {
    context('when the request passes every guard', () => {
      it('gives one context: the verb, the principal, the CORS headers and the MCP headers', async () => {
        const principal = { sub: 'u1' };
        const context = await contextOf(gate({ authenticate: () => ({ allow: true, principal }) }).check(request('POST', [
          ['Origin', ORIGIN], ['Mcp-Session-Id', 'abc'], ['MCP-Protocol-Version', '2025-11-25'],
        ])));
        expect(context).to.include({ verb: 'post', principal, sessionId: 'abc', version: '2025-11-25' });
        expect(context.cors).to.include({ 'access-control-allow-origin': ORIGIN, vary: 'origin' });
      });

      it('is synchronous when the authenticate hook is', () => {
        expect(gate().check(request('GET'))).not.to.be.instanceOf(Promise);
      });

      it('sends no CORS headers without a browser Origin', async () => {
        expect((await contextOf(gate().check(request('GET')))).cors).to.deep.equal({});
      });

      it('lets the browser send the extra headers corsAllowHeaders names', async () => {
        const context = await contextOf(gate({ corsAllowHeaders: ['x-tenant'] }).check(request('GET', [['Origin', ORIGIN]])));
        expect(context.cors['access-control-allow-headers'].split(', ')).to.include.members(['mcp-session-id', 'last-event-id', 'x-tenant']);
      });
    });

    context('when a routing header is repeated', () => {
      it('refuses with 400, naming the header', async () => {
        const answer = await answerOf(gate().check(request('POST', [['mcp-session-id', 'a'], ['Mcp-Session-Id', 'b']])));
        expect(answer.status).to.equal(400);
        expect(answer.error!.message).to.include('mcp-session-id');
      });
    });

    context('when the Host or the Origin is not allowed', () => {
      it('refuses a foreign Host with 403', async () => {
        const answer = await answerOf(gate().check(request('POST', [['Host', 'evil.example']])));
        expect(answer.status).to.equal(403);
      });

      it('refuses a foreign Origin with 403 and grants it no CORS headers', async () => {
        const answer = await answerOf(gate().check(request('POST', [['Origin', 'https://evil.example']])));
        expect(answer.status).to.equal(403);
        expect(answer.headers).to.deep.equal({});
      });
    });

    context('when it is a CORS preflight', () => {
      it('answers 204 with the methods served, before authentication', async () => {
        const answer = await answerOf(gate({ authenticate: () => expect.fail('preflights carry no credentials') }).check(request('OPTIONS', [['Origin', ORIGIN]])));
        expect(answer.status).to.equal(204);
        expect(answer.error).to.equal(undefined);
        expect(answer.headers).to.include({ 'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS', 'access-control-allow-origin': ORIGIN });
      });
    });

    context('when the method is not served', () => {
      it('refuses with 405 and the Allow header', async () => {
        const answer = await answerOf(gate().check(request('PUT')));
        expect(answer.status).to.equal(405);
        expect(answer.headers).to.include({ allow: 'GET, POST, DELETE, OPTIONS' });
      });
    });

    context('when the authenticate hook refuses', () => {
      it('answers 401 with its challenge', async () => {
        const refuse = (): AuthDecision => ({ allow: false, status: 401, wwwAuthenticate: 'Bearer realm="mcp"' });
        const answer = await answerOf(gate({ authenticate: async () => refuse() }).check(request('POST', [['Origin', ORIGIN]])));
        expect(answer.status).to.equal(401);
        expect(answer.headers).to.include({ 'www-authenticate': 'Bearer realm="mcp"', 'access-control-allow-origin': ORIGIN });
        expect(answer.error!.message).to.equal('Unauthorized: authentication required');
      });

      it('answers 403 with its message', async () => {
        const answer = await answerOf(gate({ authenticate: () => ({ allow: false, status: 403, message: 'not you' }) }).check(request('POST')));
        expect(answer.status).to.equal(403);
        expect(answer.error!.message).to.equal('Forbidden: not you');
      });
    });

    context('when the authenticate hook lets in a principal that is not plain data', () => {
      it('refuses with 500 and says why in the diagnostics only', async () => {
        const diagnostics = recording();
        const answer = await answerOf(gate({ authenticate: () => ({ allow: true, principal: new Map() }) }, diagnostics).check(request('POST')));
        expect(answer.status).to.equal(500);
        expect(answer.error).to.deep.equal({ code: -32603, message: 'Internal error' });
        expect(diagnostics.errors[0]).to.include('not plain data');
      });
    });

    context('when the authenticate hook throws or rejects', () => {
      for (const [kind, hook] of [['throws', () => { throw new Error('db down'); }], ['rejects', async () => { throw new Error('db down'); }]] as const) {
        it(`refuses with 500 when it ${kind}`, async () => {
          const diagnostics = recording();
          const answer = await answerOf(gate({ authenticate: hook }, diagnostics).check(request('POST')));
          expect(answer.status).to.equal(500);
          expect(diagnostics.errors).to.have.length(1);
        });
      }
    });
  });
});
