import 'reflect-metadata';
import { expect } from 'chai';
import { ErrorCode, type JsonObject } from '../../../lib';
import { Cancellation } from '../../../lib/core/cancellation';
import type { JsonRpcRequest } from '../../../lib/core/jsonrpc';
import type { DispatchOutcome } from '../../../lib/protocol/dispatch-outcome';
import { DEFAULT_CACHE, StatelessEra, type StatelessEraDeps, type StatelessFacts, type StatelessOptions } from '../../../lib/protocol/stateless-era/stateless-era';
import type { ToolDefinition } from '../../../lib/definitions/definitions';
import { EVERY_TOOL_VISIBLE, FakeExchange, FakeStore, flush, node, settledNow, TOOLS, type FakeTool } from '../support/protocol-fakes';

const VERSION = '2026-07-28';

function meta(capabilities: JsonObject = {}, extra: JsonObject = {}): JsonObject {
  return { 'io.modelcontextprotocol/protocolVersion': VERSION, 'io.modelcontextprotocol/clientCapabilities': capabilities, ...extra };
}

const request = (id: number, method: string, params: JsonObject): JsonRpcRequest => ({ jsonrpc: '2.0', id, method, params });

/** Asks the client to sample, then answers with what it said. */
const SAMPLES: FakeTool = async (ctx) => ({ content: [{ type: 'text', text: JSON.stringify(await ctx.sample({ messages: [], maxTokens: 5 })) }] });

/** A stateless era over the protocol fakes: tools/call of the fake tools, one resource `fake://a`. */
function era(options: Partial<StatelessOptions> = {}, tools: Record<string, FakeTool> = { ...TOOLS, samples: SAMPLES }, instructions?: string, deps: Partial<StatelessEraDeps> = {}) {
  const at = node({ store: new FakeStore(), tools });
  const stateless = new StatelessEra({
    router: at.router,
    identity: { info: { name: 'fake', version: '1' }, instructions },
    counts: () => ({ tools: 1, prompts: 0, resources: 1, taskTools: 0 }),
    hints: { listCacheHint: () => undefined, hasListers: false, resolveResource: () => undefined },
    listeners: at.events.listeners,
    resourceUpdated: async () => {},
    toolTaskSupport: () => 'forbidden',
    visibility: EVERY_TOOL_VISIBLE,
    ...deps,
  }, { cache: DEFAULT_CACHE, ...options });
  return { stateless, router: at.router, listeners: at.events.listeners };
}

function facts(extra: Partial<StatelessFacts> = {}): StatelessFacts & { exchange: FakeExchange; cancellation: Cancellation } {
  return { cancellation: new Cancellation(), exchange: new FakeExchange(), ...extra } as StatelessFacts & { exchange: FakeExchange; cancellation: Cancellation };
}

/** The JSON-RPC response of an outcome that answers. */
function responseOf(outcome: DispatchOutcome): any {
  expect(outcome.kind, JSON.stringify(outcome)).to.equal('answer');
  return (outcome as { response: unknown }).response;
}

describe('StatelessEra', () => {
  describe('#request', () => {
    context('when _meta is missing or malformed', () => {
      it('refuses it as invalid params before anything else, even an unknown method', async () => {
        const { stateless } = era();
        const outcome = await stateless.request(request(1, 'no/such', {}), facts());
        expect(outcome).to.include({ kind: 'answer', refusal: 'invalid-params' });
        expect(responseOf(outcome).error.code).to.equal(ErrorCode.InvalidParams);
      });
    });

    context('when the mirrored headers do not match the body', () => {
      it('refuses it as a header mismatch before looking at the version', async () => {
        const { stateless } = era();
        const mismatch = { code: -32001, message: 'Header mismatch' };
        const outcome = await stateless.request(request(1, 'tools/call', { _meta: meta({}, { 'io.modelcontextprotocol/protocolVersion': 'v9' }), name: 'echo' }), facts({ headers: { checkHeaders: () => mismatch } }));
        expect(outcome).to.include({ kind: 'answer', refusal: 'header-mismatch' });
        expect(responseOf(outcome).error).to.deep.equal(mismatch);
      });
    });

    context('when the version is not one of the era', () => {
      it('refuses it with the supported versions and the one requested', async () => {
        const { stateless } = era();
        const outcome = await stateless.request(request(1, 'tools/call', { _meta: meta({}, { 'io.modelcontextprotocol/protocolVersion': '2025-11-25' }), name: 'echo' }), facts());
        expect(outcome).to.include({ kind: 'answer', refusal: 'unsupported-version' });
        expect(responseOf(outcome).error).to.deep.equal({
          code: ErrorCode.UnsupportedProtocolVersion, message: 'Unsupported protocol version: 2025-11-25', data: { supported: [VERSION], requested: '2025-11-25' },
        });
      });
    });

    context('when the router does not serve the method', () => {
      it('refuses it as method not found', async () => {
        const { stateless } = era();
        const outcome = await stateless.request(request(1, 'prompts/list', { _meta: meta() }), facts());
        expect(outcome).to.include({ kind: 'answer', refusal: 'method-not-found' });
        expect(responseOf(outcome).error.code).to.equal(ErrorCode.MethodNotFound);
      });
    });

    describe('server/discover', () => {
      it('describes the server: versions, capabilities, caching, and its instructions when it has some', async () => {
        const { stateless } = era({}, TOOLS, 'Use the tools.');
        const result = responseOf(await stateless.request(request(1, 'server/discover', { _meta: meta() }), facts())).result;
        expect(result).to.include({ resultType: 'complete', ttlMs: DEFAULT_CACHE.discover.ttlMs, cacheScope: DEFAULT_CACHE.discover.scope, instructions: 'Use the tools.' });
        expect(result.supportedVersions).to.deep.equal([VERSION]);
        expect(result.capabilities).to.have.property('tools');
      });
    });

    describe('tools/call', () => {
      it('asks the visibility resolver once for the tool it names: the header check and the background call share the answer', async () => {
        const asked: string[] = [];
        const schema: JsonObject = { type: 'object' };
        const checked: Array<JsonObject | undefined> = [];
        const tool = { descriptor: { inputSchema: schema } } as unknown as ToolDefinition;
        const backgroundAsked: string[] = [];
        const { stateless } = era({}, TOOLS, undefined, {
          visibility: { tool: (name) => { asked.push(name); return tool; } },
          backgroundCall: (call) => { backgroundAsked.push(call.tool); return undefined; },
        });
        const headers = { checkHeaders: (_message: JsonRpcRequest, _meta: unknown, inputSchema: JsonObject | undefined) => { checked.push(inputSchema); return undefined; } };
        const outcome = await stateless.request(request(1, 'tools/call', { _meta: meta(), name: 'echo', arguments: { a: 1 } }), facts({ headers }));
        expect(responseOf(outcome).result.echoed).to.deep.equal({ a: 1 });
        expect(asked).to.deep.equal(['echo']);
        expect(checked).to.deep.equal([schema]);
        expect(backgroundAsked).to.deep.equal(['echo']);
      });

      it('runs the handler with the principal and the era in its context, and decorates the result', async () => {
        const { stateless, router } = era();
        const outcome = await stateless.request(request(1, 'tools/call', { _meta: meta(), name: 'echo', arguments: { a: 1 } }), facts({ principal: { user: 'ada' } }));
        expect(responseOf(outcome).result).to.include({ resultType: 'complete' });
        expect(responseOf(outcome).result.echoed).to.deep.equal({ a: 1 });
        expect(router.contexts[0]).to.include({ era: 'stateless', protocolVersion: VERSION });
        expect(router.contexts[0].principal).to.deep.equal({ user: 'ada' });
      });

      context('when the handler asks the client for something the request does not carry', () => {
        it('ends the round with input_required, the input request, and a requestState that continues it', async () => {
          const { stateless } = era();
          const params = { _meta: meta({ sampling: {} }), name: 'samples' };
          const first = responseOf(await stateless.request(request(1, 'tools/call', params), facts())).result;
          expect(first.resultType).to.equal('input_required');
          expect(Object.values(first.inputRequests)).to.deep.equal([{ method: 'sampling/createMessage', params: { messages: [], maxTokens: 5 } }]);
          const [key] = Object.keys(first.inputRequests);
          const said = { role: 'assistant', model: 'm', content: { type: 'text', text: 'hi' } };
          const second = responseOf(await stateless.request(request(2, 'tools/call', { ...params, requestState: first.requestState, inputResponses: { [key]: said } }), facts())).result;
          expect(second.resultType).to.equal('complete');
          expect(JSON.parse(second.content[0].text)).to.deep.equal(said);
        });
      });

      context('when the requestState was sealed for another principal', () => {
        it('refuses the retry as invalid params without running the handler', async () => {
          const { stateless, router } = era();
          const params = { _meta: meta({ sampling: {} }), name: 'samples' };
          const first = responseOf(await stateless.request(request(1, 'tools/call', params), facts({ principal: { user: 'ada' } }))).result;
          const [key] = Object.keys(first.inputRequests);
          const retry = { ...params, requestState: first.requestState, inputResponses: { [key]: { role: 'assistant', model: 'm', content: { type: 'text', text: 'x' } } } };
          const ran = router.contexts.length;
          const outcome = await stateless.request(request(2, 'tools/call', retry), facts({ principal: { user: 'bob' } }));
          expect(outcome).to.include({ kind: 'answer', refusal: 'invalid-params' });
          expect(responseOf(outcome).error.message).to.equal('Invalid requestState: requestState belongs to another principal');
          expect(router.contexts.length).to.equal(ran);
        });
      });

      context('when inputResponses is not an object', () => {
        it('refuses it as invalid params', async () => {
          const { stateless } = era();
          const outcome = await stateless.request(request(1, 'tools/call', { _meta: meta(), name: 'echo', inputResponses: [1] }), facts());
          expect(responseOf(outcome).error).to.deep.equal({ code: ErrorCode.InvalidParams, message: '"inputResponses" must be an object' });
        });
      });

      context('when the request is cancelled while it runs', () => {
        it('sends no answer', async () => {
          const { stateless } = era();
          const way = facts();
          const pending = stateless.request(request(1, 'tools/call', { _meta: meta(), name: 'wait' }), way);
          await flush();
          way.cancellation.cancel('the client went away');
          expect(await pending).to.deep.equal({ kind: 'nothing' });
        });
      });
    });

    describe('subscriptions/listen', () => {
      context('when notifications is not an object', () => {
        it('refuses it as invalid params', async () => {
          const { stateless } = era();
          const outcome = await stateless.request(request(1, 'subscriptions/listen', { _meta: meta(), notifications: true }), facts());
          expect(responseOf(outcome).error).to.deep.equal({ code: ErrorCode.InvalidParams, message: '"notifications" must be an object' });
        });
      });

      context('when it asks for more resource URIs than maxSubscriptionsPerStream', () => {
        it('refuses it as invalid params, naming the limit', async () => {
          const { stateless } = era({ maxSubscriptionsPerStream: 2 });
          const outcome = await stateless.request(request(1, 'subscriptions/listen', { _meta: meta(), notifications: { resourceSubscriptions: ['a', 'b', 'c'] } }), facts());
          expect(responseOf(outcome).error).to.deep.include({ code: ErrorCode.InvalidParams, data: { maxSubscriptionsPerSession: 2 } });
        });
      });

      context('when the client asks for a filter', () => {
        it('acknowledges the kinds the server has, tagged with the request id, and sends no answer when the client goes away', async () => {
          const { stateless, listeners } = era();
          const way = facts();
          const pending = stateless.request(request(7, 'subscriptions/listen', { _meta: meta(), notifications: { toolsListChanged: true, promptsListChanged: true } }), way);
          await flush();
          expect(way.exchange.sent).to.deep.equal([{
            jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged',
            params: { notifications: { toolsListChanged: true }, _meta: { 'io.modelcontextprotocol/subscriptionId': 7 } },
          }]);
          expect(listeners.size).to.equal(1);
          way.cancellation.cancel('closed');
          expect(await pending).to.deep.equal({ kind: 'nothing' });
          expect(listeners.size).to.equal(0);
        });
      });

      context('when the server already holds maxListenStreams streams', () => {
        it('refuses another with -32010 while they stay open', async () => {
          const { stateless } = era({ maxListenStreams: 1 });
          const open = facts();
          const first = stateless.request(request(1, 'subscriptions/listen', { _meta: meta(), notifications: {} }), open);
          await flush();
          const second = await stateless.request(request(2, 'subscriptions/listen', { _meta: meta(), notifications: {} }), facts());
          expect(responseOf(second).error).to.deep.include({ code: ErrorCode.TooManyRequests, data: { maxListenStreams: 1 } });
          expect(await settledNow(Promise.resolve(first))).to.equal('waiting');
          open.cancellation.cancel('closed');
          await first;
        });
      });
    });
  });
});
