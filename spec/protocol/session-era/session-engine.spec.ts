import 'reflect-metadata';
import { expect } from 'chai';
import { ErrorCode, PhantomError, type JsonObject } from '../../../lib';
import type { JsonRpcRequest } from '../../../lib/core/jsonrpc';
import { InProcessSessionBus, type BusSubscription, type ServerMessage, type SessionListener, type SessionMessage } from '../../../lib/protocol/seams/session-bus';
import { call, FakeExchange, FakeStore, flush, initializeRequest, node, session, settledNow, way } from '../support/protocol-fakes';

/** Starts `tools/call sample` on `at` and returns its answer, the request it sent the client, and what the tool's `ctx.sample` came to. */
async function sampling(at: ReturnType<typeof node>, state: Awaited<ReturnType<typeof session>>, id = 1) {
  const exchange = new FakeExchange();
  const answer = Promise.resolve(at.engine.request(state, call(id, 'sample'), way(exchange)));
  await flush();
  const [sent] = exchange.requests as JsonRpcRequest[];
  return { answer, sent, exchange, asked: at.router.asked[at.router.asked.length - 1] };
}

/** Two nodes sharing a store and a bus, and a session made on the first. */
async function twoNodes() {
  const store = new FakeStore();
  const bus = new InProcessSessionBus();
  const here = node({ store, bus });
  const there = node({ store, bus });
  return { here, there, state: await session(here.engine) };
}

/** A bus that counts what crosses it, for the hot path's sake. */
class CountingBus extends InProcessSessionBus {
  readonly counts = { publish: 0, subscribe: 0, broadcast: 0 };
  override publish(id: string, message: SessionMessage) { this.counts.publish += 1; return super.publish(id, message); }
  override subscribe(id: string, listener: (message: SessionMessage) => void) { this.counts.subscribe += 1; return super.subscribe(id, listener); }
  override broadcast(message: ServerMessage) { this.counts.broadcast += 1; return super.broadcast(message); }
}

/** A bus whose subscriptions go live (or fail) when the spec says, as one between processes does. */
class SlowBus extends InProcessSessionBus {
  readonly subscribing: ((failure?: Error) => void)[] = [];
  override subscribe(id: string, listener: SessionListener): BusSubscription {
    const stop = super.subscribe(id, listener);
    const ready = new Promise<void>((resolve, reject) => {
      this.subscribing.push((failure) => (failure ? reject(failure) : resolve()));
    });
    return Object.assign(() => stop(), { ready });
  }
}

describe('SessionEngine', () => {
  describe('#initialize', () => {
    it('creates the session and answers with capabilities computed from the counts, at the clock\'s time', async () => {
      const store = new FakeStore();
      const { engine } = node({ store });
      const { state, response } = await engine.initialize(initializeRequest(3));
      expect(state).to.include({ protocolVersion: '2025-11-25', initialized: false, createdAt: 1_000_000 });
      expect(response).to.have.nested.property('result.capabilities.tools.listChanged', true);
      expect(response).to.not.have.nested.property('result.capabilities.prompts');
      expect(await store.load(state!.id)).to.include({ id: state!.id });
    });

    it('refuses it with too-many-sessions once maxSessions are open', async () => {
      const { engine } = node({ store: new FakeStore(), options: { maxSessions: 1 } });
      await session(engine);
      const refused = await engine.initialize(initializeRequest(2));
      expect(refused.refusal).to.equal('too-many-sessions');
      expect(refused.response).to.have.nested.property('error.code', ErrorCode.TooManySessions);
    });

    it('refuses malformed params with invalid-params', async () => {
      const { engine } = node({ store: new FakeStore() });
      const refused = await engine.initialize({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: 1 } });
      expect(refused.refusal).to.equal('invalid-params');
    });
  });

  describe('#response', () => {
    context('when a client answers with the id of a request another session is waiting for', () => {
      it('does not settle it: only a response in its own session does', async () => {
        const at = node({ store: new FakeStore() });
        const { engine } = at;
        const victim = await session(engine);
        const intruder = await session(engine);
        const { answer, sent } = await sampling(at, victim);
        engine.response(intruder, { jsonrpc: '2.0', id: sent.id, result: { role: 'assistant', content: { type: 'text', text: 'forged' } } });
        expect(await settledNow(answer)).to.equal('waiting');
        engine.response(victim, { jsonrpc: '2.0', id: sent.id, result: { role: 'assistant', content: { type: 'text', text: 'real' } } });
        expect(await answer).to.have.nested.property('result.answer.content.text', 'real');
      });
    });

    context('when the request waits on another node', () => {
      it('reaches it over the bus', async () => {
        const { here, there, state } = await twoNodes();
        const { answer, sent } = await sampling(here, state);
        there.engine.response(state, { jsonrpc: '2.0', id: sent.id, result: { role: 'assistant', content: { type: 'text', text: 'via the bus' } } });
        expect(await answer).to.have.nested.property('result.answer.content.text', 'via the bus');
      });
    });
  });

  describe('#notification', () => {
    context('when notifications/cancelled names a request running on another node', () => {
      it('cancels it there, over the bus', async () => {
        const { here, there, state } = await twoNodes();
        const running = way();
        const answer = Promise.resolve(here.engine.request(state, call(9, 'wait'), running));
        await there.engine.notification(state, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 9, reason: 'user' } });
        expect(await answer).to.equal(undefined);
        expect(running.cancellation.reason).to.equal('user');
      });
    });
  });

  describe('#request', () => {
    it('puts no traffic on the bus per request: the session is held once', async () => {
      const bus = new CountingBus();
      const { engine } = node({ store: new FakeStore(), bus });
      const state = await session(engine);
      for (const id of [1, 2, 3]) await engine.request(state, call(id, 'echo'), way());
      expect(bus.counts).to.deep.equal({ publish: 0, subscribe: 1, broadcast: 0 });
    });

    context('when the session\'s subscription to the bus is not live yet', () => {
      it('runs the handler only once it is, so that an answer landing on another node cannot overtake it', async () => {
        const bus = new SlowBus();
        const at = node({ store: new FakeStore(), bus });
        const state = await session(at.engine);
        const exchange = new FakeExchange();
        const answer = Promise.resolve(at.engine.request(state, call(1, 'sample'), way(exchange)));
        await flush();
        const sentBefore = exchange.requests.length;
        bus.subscribing[0]();
        await flush();
        expect([sentBefore, exchange.requests.length]).to.deep.equal([0, 1]);
        at.engine.response(state, { jsonrpc: '2.0', id: exchange.requests[0].id, result: { role: 'assistant', content: { type: 'text', text: 'ok' } } });
        expect(await answer).to.have.nested.property('result.answer.content.text', 'ok');
      });
    });

    context('when the request is cancelled before the session\'s subscription is live', () => {
      it('never runs the handler, and is not answered', async () => {
        const bus = new SlowBus();
        const at = node({ store: new FakeStore(), bus });
        const state = await session(at.engine);
        const exchange = new FakeExchange();
        const answer = Promise.resolve(at.engine.request(state, call(1, 'sample'), way(exchange)));
        await at.engine.notification(state, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } });
        bus.subscribing[0]();
        expect(await answer).to.equal(undefined);
        expect(exchange.requests).to.deep.equal([]);
      });
    });

    context('when the session\'s subscription to the bus cannot be made', () => {
      it('fails the request with the bus\'s error, lets the subscription go, and the next request subscribes afresh', async () => {
        const bus = new SlowBus();
        const { engine } = node({ store: new FakeStore(), bus });
        const state = await session(engine);
        const first = Promise.resolve(engine.request(state, call(1, 'echo'), way()));
        bus.subscribing[0](new PhantomError('redis_unavailable', 'Redis is down'));
        const failure = await first.then(() => undefined, (error: unknown) => error);
        const heldAfterFailure = bus.sessionCount;
        const second = Promise.resolve(engine.request(state, call(2, 'echo'), way()));
        bus.subscribing[1]();
        expect(failure).to.be.instanceOf(PhantomError).with.property('code', 'redis_unavailable');
        expect(heldAfterFailure).to.equal(0);
        expect(await second).to.have.property('result');
        expect(bus.sessionCount).to.equal(1);
      });
    });

    it('refuses a request beyond maxInFlightPerSession with -32010, and an id still running', async () => {
      const { engine } = node({ store: new FakeStore(), options: { maxInFlightPerSession: 1 } });
      const state = await session(engine);
      const first = way();
      void engine.request(state, call(1, 'wait'), first);
      expect(await engine.request(state, call(1, 'echo'), way())).to.have.nested.property('error.code').that.is.a('number');
      expect(await engine.request(state, call(2, 'echo'), way())).to.have.nested.property('error.code', ErrorCode.TooManyRequests);
      first.cancellation.cancel('done');
    });
  });

  describe('when a session ends', () => {
    const endings = {
      'deleted (#endSession)': async (_store: FakeStore, engine: ReturnType<typeof node>['engine'], id: string) => { await engine.endSession(id); },
      'expired (the store raises onExpired)': async (store: FakeStore, _engine: unknown, id: string) => { store.expire(id); },
    };

    for (const [how, end] of Object.entries(endings)) {
      context(`when it is ${how}`, () => {
        it('fails the requests waiting for its client, saying the session ended', async () => {
          const store = new FakeStore();
          const at = node({ store });
          const state = await session(at.engine);
          const { asked } = await sampling(at, state);
          await end(store, at.engine, state.id);
          expect(await settledNow(asked)).to.have.property('error').that.is.instanceOf(PhantomError).with.property('code', 'session_closed');
        });

        it('cancels its running requests', async () => {
          const store = new FakeStore();
          const { engine } = node({ store });
          const state = await session(engine);
          const running = way();
          const answer = Promise.resolve(engine.request(state, call(1, 'wait'), running));
          await end(store, engine, state.id);
          expect(running.cancellation.aborted).to.equal(true);
          expect(await settledNow(answer)).to.deep.equal({ value: undefined });
        });

        it('forgets its URL elicitations: their completion reaches nobody', async () => {
          const store = new FakeStore();
          const { engine } = node({ store });
          const state = await session(engine);
          const exchange = new FakeExchange();
          engine.trackUrlElicitation('flow-1', state.id, exchange);
          await end(store, engine, state.id);
          await engine.notifyElicitationComplete('flow-1');
          expect(exchange.sent).to.deep.equal([]);
        });

        it('tells whoever listens for session ends (transports free its streams)', async () => {
          const store = new FakeStore();
          const { engine } = node({ store });
          const state = await session(engine);
          const ended: string[] = [];
          engine.onSessionEnded((id) => ended.push(id));
          await end(store, engine, state.id);
          expect(ended).to.include(state.id);
        });
      });
    }

    context('when it ends on another node', () => {
      it('fails the waiters held here too', async () => {
        const { here, there, state } = await twoNodes();
        const { asked } = await sampling(here, state);
        await there.engine.endSession(state.id);
        expect(await settledNow(asked)).to.have.property('error').with.property('code', 'session_closed');
      });
    });
  });

  describe('#notifyElicitationComplete', () => {
    it('tells the client on the request\'s exchange while it is open', async () => {
      const { engine } = node({ store: new FakeStore() });
      const state = await session(engine);
      const exchange = new FakeExchange();
      engine.trackUrlElicitation('flow-1', state.id, exchange);
      await engine.notifyElicitationComplete('flow-1');
      expect(exchange.sent).to.deep.equal([{ jsonrpc: '2.0', method: 'notifications/elicitation/complete', params: { elicitationId: 'flow-1' } }]);
      await engine.notifyElicitationComplete('flow-1');
      expect(exchange.sent).to.have.length(1);
    });

    it('reaches the node that sent it, and the session\'s standalone stream once the exchange closed', async () => {
      const { here, there, state } = await twoNodes();
      const exchange = new FakeExchange();
      here.engine.trackUrlElicitation('flow-2', state.id, exchange);
      exchange.open = false;
      const standalone: JsonObject[] = [];
      there.engine.attachStandalone(state.id, (message) => standalone.push(message as unknown as JsonObject));
      await there.engine.notifyElicitationComplete('flow-2');
      expect(standalone).to.deep.equal([{ jsonrpc: '2.0', method: 'notifications/elicitation/complete', params: { elicitationId: 'flow-2' } }]);
    });
  });

  describe('#holdStandalone', () => {
    /** A standalone stream as the HTTP transport hands it in, recording what reaches it and when it is let go. */
    function streamOf(streamId: string, log: string[], label = streamId) {
      const sent: JsonObject[] = [];
      return { sent, streamId, send: (message: unknown) => void sent.push(message as JsonObject), released: (held: string) => void log.push(`${label} released for ${held}`) };
    }
    const NOTE = { jsonrpc: '2.0' as const, method: 'notifications/message', params: { level: 'info', data: 'hi' } };

    context('when another node holds the session\'s standalone stream', () => {
      it('takes it over: the other node lets that stream go, and what is sent from then on reaches this node only, once', async () => {
        const store = new FakeStore();
        const bus = new InProcessSessionBus();
        const here = node({ store, bus });
        const there = node({ store, bus });
        const state = await session(here.engine);
        const log: string[] = [];
        const before = streamOf('stream-1', log);
        const after = streamOf('stream-1', log);
        await here.engine.holdStandalone(state.id, before);
        await bus.publish(state.id, { kind: 'notify', notification: NOTE });
        await there.engine.holdStandalone(state.id, after);
        await bus.publish(state.id, { kind: 'notify', notification: NOTE });
        expect(log).to.deep.equal(['stream-1 released for stream-1']);
        expect({ before: before.sent, after: after.sent }).to.deep.equal({ before: [NOTE], after: [NOTE] });
      });
    });

    context('when the client moves on to another standalone stream of the session on the same node', () => {
      it('lets the old one go for the new one', async () => {
        const { engine } = node({ store: new FakeStore() });
        const state = await session(engine);
        const log: string[] = [];
        await engine.holdStandalone(state.id, streamOf('stream-1', log));
        await engine.holdStandalone(state.id, streamOf('stream-2', log));
        expect(log).to.deep.equal(['stream-1 released for stream-2']);
      });
    });

    context('when another node takes the stream while this node claims it again (its announcement on its way)', () => {
      it('keeps the stream for its own announcement, which comes last: one holder left, the same on every node', async () => {
        const store = new FakeStore();
        const bus = new InProcessSessionBus();
        const here = node({ store, bus });
        const there = node({ store, bus });
        const state = await session(here.engine);
        const log: string[] = [];
        const mine = streamOf('stream-1', log, 'mine');
        const theirs = streamOf('stream-1', log, 'theirs');
        await here.engine.holdStandalone(state.id, mine);
        // Announced in this order: theirs, then this node's again.
        await Promise.all([there.engine.holdStandalone(state.id, theirs), here.engine.holdStandalone(state.id, mine)]);
        await bus.publish(state.id, { kind: 'notify', notification: NOTE });
        expect({ mine: mine.sent, theirs: theirs.sent, log }).to.deep.equal({ mine: [NOTE], theirs: [], log: ['theirs released for stream-1'] });
      });
    });

    context('when the bus cannot carry the announcement', () => {
      it('holds the stream at once, and says why in the diagnostics', async () => {
        const errors: string[] = [];
        class DownBus extends InProcessSessionBus {
          override async publish(): Promise<void> { throw new PhantomError('redis_unavailable', 'Redis is down'); }
        }
        const { engine, events } = node({ store: new FakeStore(), bus: new DownBus(), diagnostics: { warn: () => {}, error: (line) => errors.push(line) } });
        const state = await session(engine);
        const stream = streamOf('stream-1', []);
        await engine.holdStandalone(state.id, stream);
        expect(events.deliver(state.id, NOTE)).to.equal(true);
        expect(stream.sent).to.deep.equal([NOTE]);
        expect(errors).to.deep.equal(['standalone stream handover not announced']);
      });
    });
  });

  describe('#close', () => {
    it('stops hearing expiries', async () => {
      const store = new FakeStore();
      const { engine } = node({ store });
      const state = await session(engine);
      const ended: string[] = [];
      engine.onSessionEnded((id) => ended.push(id));
      await engine.close();
      store.expire(state.id);
      expect(ended).to.deep.equal([]);
    });
  });
});
