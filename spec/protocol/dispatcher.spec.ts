import 'reflect-metadata';
import { HeapGuard } from '../../lib/protocol/heap-guard';
import { expect } from 'chai';
import { ErrorCode, type JsonObject } from '../../lib';
import type { JsonRpcRequest } from '../../lib/core/jsonrpc';
import { Dispatcher } from '../../lib/protocol/dispatcher';
import { PipeBinding } from '../../lib/protocol/pipe-binding';
import { StatelessEra } from '../../lib/protocol/stateless-era/stateless-era';
import { DEFAULT_CACHE } from '../../lib/protocol/stateless-era/stateless-era';
import { SILENT_DIAGNOSTICS } from '../../lib';
import type { ToolDefinition } from '../../lib/definitions/definitions';
import { InMemorySessionStore, type SessionStore } from '../../lib/protocol/seams/session-store';
import { call, FakeArrival, FakeClock, FakeStore, flush, initializeRequest, node, settledNow } from './support/protocol-fakes';

const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
const SCHEMA: JsonObject = { type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' } } };

/** A dispatcher over fakes: a store, an in-process bus, a router with the fake tools; `hidden` tools are invisible to everyone. */
function dispatcher<S extends SessionStore = FakeStore>(hidden: readonly string[] = [], store: S = new FakeStore() as SessionStore as S) {
  const at = node({ store });
  const stateless = new StatelessEra({
    router: at.router,
    identity: { info: { name: 'fake', version: '1' } },
    counts: () => ({ tools: 1, prompts: 0, resources: 0, taskTools: 0 }),
    hints: { listCacheHint: () => undefined, hasListers: false, resolveResource: () => undefined },
    listeners: at.events.listeners,
    resourceUpdated: async () => {},
    toolTaskSupport: () => 'forbidden',
    visibility: { tool: (name) => (hidden.includes(name) ? undefined : { descriptor: { inputSchema: SCHEMA } } as ToolDefinition) },
  }, { cache: DEFAULT_CACHE });
  return { store, ...at, dispatcher: new Dispatcher({ engine: at.engine, stateless, store, running: at.running, diagnostics: SILENT_DIAGNOSTICS, maxJsonDepth: 100, heap: new HeapGuard(1) }) };
}

function statelessCall(id: number, name: string): JsonRpcRequest {
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { _meta: META, name } };
}

describe('Dispatcher', () => {
  describe('#dispatch, at once or later', () => {
    context('when nothing on a session request\'s way waits (a store that has it at hand, a tool that answers at once)', () => {
      it('answers at once, with no promise', async () => {
        // On the engine's fake clock, so that the session is not idle on the store's.
        const store = new InMemorySessionStore({ now: new FakeClock().read });
        const { dispatcher: d } = dispatcher([], store);
        const opened = await d.dispatch(initializeRequest(1), new FakeArrival());
        const sessionId = (opened as { sessionId: string }).sessionId;
        const arrival = new FakeArrival({ sessionId });
        await d.dispatch({ jsonrpc: '2.0', id: 2, method: 'ping' }, arrival);
        const outcome = d.dispatch(call(3, 'now', { arguments: { a: 1 } }), arrival);
        expect(outcome).not.to.be.instanceOf(Promise);
        expect(outcome).to.deep.equal({ kind: 'answer', response: { jsonrpc: '2.0', id: 3, result: { echoed: { a: 1 } } } });
        await store.close();
      });
    });

    context('when the store must be waited for (it has no loadAtHand)', () => {
      it('answers the same, as a promise', async () => {
        const { dispatcher: d } = dispatcher();
        const opened = await d.dispatch(initializeRequest(1), new FakeArrival());
        const arrival = new FakeArrival({ sessionId: (opened as { sessionId: string }).sessionId });
        const outcome = d.dispatch(call(3, 'now', { arguments: { a: 1 } }), arrival);
        expect(outcome).to.be.instanceOf(Promise);
        expect(await outcome).to.deep.equal({ kind: 'answer', response: { jsonrpc: '2.0', id: 3, result: { echoed: { a: 1 } } } });
      });
    });
  });

  describe('#dispatch on a pipe', () => {
    context('when ping comes before initialize', () => {
      it('answers it, and refuses any other request as not initialised', async () => {
        const { dispatcher: d } = dispatcher();
        const arrival = new FakeArrival({ binding: new PipeBinding() });
        expect(await d.dispatch({ jsonrpc: '2.0', id: 1, method: 'ping' }, arrival)).to.deep.equal({ kind: 'answer', response: { jsonrpc: '2.0', id: 1, result: {} } });
        expect(await d.dispatch(call(2, 'echo'), arrival)).to.have.nested.property('response.error.code', ErrorCode.InvalidRequest);
      });
    });

    context('when initialize arrives', () => {
      it('pins the session era and binds the pipe to the new session', async () => {
        const { dispatcher: d, store } = dispatcher();
        const binding = new PipeBinding();
        const outcome = await d.dispatch(initializeRequest(1), new FakeArrival({ binding }));
        expect(binding.era).to.equal('session');
        expect(outcome).to.include({ kind: 'answer', sessionId: binding.sessionId });
        expect(await store.load(binding.sessionId!)).to.not.equal(undefined);
      });
    });

    context('when a stateless-era request runs and the client sends notifications/cancelled for it', () => {
      it('cancels it: no answer goes out', async () => {
        const { dispatcher: d } = dispatcher();
        const binding = new PipeBinding();
        const arrival = new FakeArrival({ binding });
        const running = d.dispatch(statelessCall(5, 'wait'), arrival);
        await flush();
        expect(binding.era).to.equal('stateless');
        await d.dispatch({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 5 } }, new FakeArrival({ binding }));
        expect(arrival.way.cancellation.aborted).to.equal(true);
        expect(await running).to.deep.equal({ kind: 'nothing' });
      });

      it('leaves the requests of another pipe running', async () => {
        const { dispatcher: d } = dispatcher();
        const arrival = new FakeArrival({ binding: new PipeBinding() });
        void d.dispatch(statelessCall(5, 'wait'), arrival);
        await flush();
        await d.dispatch({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 5 } }, new FakeArrival({ binding: new PipeBinding() }));
        expect(arrival.way.cancellation.aborted).to.equal(false);
        arrival.way.cancellation.cancel('done');
      });
    });

    context('when the pipe closes (#unbind)', () => {
      it('fails the requests waiting for its client and cancels its stateless-era requests', async () => {
        const { dispatcher: d, router } = dispatcher();
        const sessionPipe = new PipeBinding();
        await d.dispatch(initializeRequest(1), new FakeArrival({ binding: sessionPipe }));
        void d.dispatch(call(2, 'sample'), new FakeArrival({ binding: sessionPipe }));
        const statelessPipe = new PipeBinding();
        const statelessArrival = new FakeArrival({ binding: statelessPipe });
        void d.dispatch(statelessCall(3, 'wait'), statelessArrival);
        await flush();
        await d.unbind(sessionPipe);
        await d.unbind(statelessPipe);
        expect(await settledNow(router.asked[0])).to.have.property('error').with.property('code', 'session_closed');
        expect(statelessArrival.way.cancellation.aborted).to.equal(true);
      });
    });

    context('when the pipe is closing', () => {
      it('refuses new requests with server-closing', async () => {
        const { dispatcher: d } = dispatcher();
        const arrival = new FakeArrival({ binding: new PipeBinding() });
        arrival.accepting = false;
        expect(await d.dispatch(initializeRequest(1), arrival)).to.include({ refusal: 'server-closing' });
      });
    });
  });

  describe('#dispatch over HTTP (sessions named by the transport)', () => {
    it('refuses a request that names no session with session-required', async () => {
      const { dispatcher: d } = dispatcher();
      expect(await d.dispatch(call(1, 'echo'), new FakeArrival())).to.include({ refusal: 'session-required' });
    });

    it('refuses an unknown session with session-not-found, and another principal\'s with other-principal', async () => {
      const { dispatcher: d, engine } = dispatcher();
      const { state } = await engine.initialize(initializeRequest(1), { user: 'ada' });
      expect(await d.dispatch(call(1, 'echo'), new FakeArrival({ sessionId: 'nope' }))).to.include({ refusal: 'session-not-found' });
      expect(await d.dispatch(call(1, 'echo'), new FakeArrival({ sessionId: state!.id, principal: { user: 'eve' } }))).to.include({ refusal: 'other-principal' });
      expect(await d.dispatch(call(1, 'echo'), new FakeArrival({ sessionId: state!.id, principal: { user: 'ada' } }))).to.not.have.property('refusal');
    });

    it('refuses initialize that names a session with invalid-request', async () => {
      const { dispatcher: d } = dispatcher();
      expect(await d.dispatch(initializeRequest(1), new FakeArrival({ sessionId: 'any' }))).to.include({ refusal: 'invalid-request' });
    });

    it('refuses a version header the session era does not speak with unsupported-version', async () => {
      const { dispatcher: d } = dispatcher();
      const outcome = await d.dispatch({ jsonrpc: '2.0', id: 1, method: 'ping' }, new FakeArrival({ sessionId: 's', versionHeader: '1999-01-01' }));
      expect(outcome).to.include({ refusal: 'unsupported-version' });
    });

    it('accepts a notification of the session with nothing to answer', async () => {
      const { dispatcher: d, engine } = dispatcher();
      const { state } = await engine.initialize(initializeRequest(1));
      expect(await d.dispatch({ jsonrpc: '2.0', method: 'notifications/initialized' }, new FakeArrival({ sessionId: state!.id }))).to.deep.equal({ kind: 'accepted' });
    });

    it('accepts a client response in the stateless era, refused as invalid-request for transports that answer it', async () => {
      const { dispatcher: d } = dispatcher();
      const outcome = await d.dispatch({ jsonrpc: '2.0', id: 1, result: {} }, new FakeArrival({ versionHeader: '2026-07-28' }));
      expect(outcome).to.include({ kind: 'accepted', refusal: 'invalid-request' });
    });

    it('refuses an invalid message with invalid-request and its id', async () => {
      const { dispatcher: d } = dispatcher();
      expect(await d.dispatch({ jsonrpc: '1.0', id: 4, method: 'ping' }, new FakeArrival())).to.deep.include({ refusal: 'invalid-request' }).and.have.nested.property('response.id', 4);
    });
  });

  describe('#dispatch in the stateless era over HTTP', () => {
    it('hands the header check the input schema of the tool, when the caller may see it', async () => {
      const { dispatcher: d } = dispatcher(['secret']);
      const arrival = new FakeArrival({ headers: true });
      await d.dispatch(statelessCall(1, 'echo'), arrival);
      await d.dispatch(statelessCall(2, 'secret'), arrival);
      expect(arrival.checked).to.deep.equal([SCHEMA, undefined]);
    });

    it('refuses an unknown method with method-not-found', async () => {
      const { dispatcher: d } = dispatcher();
      const outcome = await d.dispatch({ jsonrpc: '2.0', id: 1, method: 'nothing/here', params: { _meta: META } }, new FakeArrival());
      expect(outcome).to.include({ refusal: 'method-not-found' });
    });
  });
});
