import { expect } from 'chai';
import { InMemoryEventStore } from '../../../lib/entries/seams';
import { UNLIMITED } from '../../../lib/transport/http/unread-watch';
import type { SseStream } from '../../../lib/transport/http/sse-stream';
import { StreamRegistry, type Schedule, type StreamLimits } from '../../../lib/transport/http/stream-registry';
import { FakeResponse } from '../../support/fake-response';

const LIMITS: StreamLimits = { retryMs: 1000, sseUnread: UNLIMITED, maxStreamsPerSession: 3, finishedStreamGraceMs: 30, undeliveredStreamTtlMs: 300 };
const SSE = { 'content-type': 'text/event-stream' };
/** The protocol's side of taking a standalone stream over: held at once. */
const held = async (): Promise<void> => undefined;
const note = (n: number) => ({ jsonrpc: '2.0' as const, method: 'notifications/progress', params: { progressToken: 't', progress: n } });

/** Timers the spec runs by hand: what was scheduled, and for how long. */
class FakeClock {
  readonly pending: Array<{ task: () => void; ms: number }> = [];
  readonly schedule: Schedule = (task, ms) => void this.pending.push({ task, ms });
  runAll(): void {
    for (const { task } of this.pending.splice(0)) task();
  }
}

/** A new primed stream and the id its priming event went out under; its client gone unless `res` stays. */
async function primed(registry: StreamRegistry, sessionId: string, res = new FakeResponse(), stay = false) {
  const stream = registry.open(sessionId);
  stream.attach(res.asResponse);
  await stream.prime();
  if (!stay) res.hangUp();
  return { stream, priming: /^id: (.+)$/m.exec(res.text)![1] };
}

/** The event ids written on `res`, priming events included. */
const idsOn = (res: FakeResponse) => [...res.text.matchAll(/^id: (.+)$/gm)].map((match) => match[1]);

/** Lets queued stream steps (and what they await in the in-memory store) run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

/** The session's standalone stream on `writer`: primed and one notification sent, its client gone; and the priming id. */
async function standaloneOn(writer: StreamRegistry) {
  const stream = writer.standaloneOf('s1')!;
  const res = new FakeResponse();
  stream.attach(res.asResponse);
  await stream.prime();
  await stream.send(note(1));
  res.hangUp();
  return { stream, priming: idsOn(res)[0] };
}

describe('StreamRegistry', () => {
  let store: InMemoryEventStore;
  let clock: FakeClock;
  let registry: StreamRegistry;
  beforeEach(() => {
    store = new InMemoryEventStore();
    clock = new FakeClock();
    registry = new StreamRegistry(store, LIMITS, clock.schedule);
  });

  describe('#open', () => {
    context('when two handlers share one event store', () => {
      it('gives the streams of one session ids that never meet', () => {
        const other = new StreamRegistry(store, LIMITS, clock.schedule);
        const ids = [registry.open('s1').id, other.open('s1').id, registry.open('s1').id, other.open('s1').id];
        expect(new Set(ids).size).to.equal(4);
        expect(ids.some((id) => id.startsWith('s1-'))).to.equal(false);
      });
    });

    context('when a session has more than maxStreamsPerSession streams', () => {
      it('forgets its oldest ended streams first and keeps those still going', async () => {
        const going = await primed(registry, 's1');
        const ended = [await primed(registry, 's1'), await primed(registry, 's1')];
        for (const { stream } of ended) await stream.finish();
        await primed(registry, 's1');
        expect(await store.streamOf(going.priming)).not.to.equal(undefined);
        expect(await store.streamOf(ended[0].priming)).to.equal(undefined);
        expect(await store.streamOf(ended[1].priming)).not.to.equal(undefined);
      });
    });

    context('when a stream ends', () => {
      it('keeps it resumable for finishedStreamGraceMs when a connection carried its last event, then forgets it', async () => {
        const { stream, priming } = await primed(registry, 's1', new FakeResponse(), true);
        await stream.finish();
        expect(clock.pending.map(({ ms }) => ms)).to.deep.equal([LIMITS.finishedStreamGraceMs]);
        expect(await store.streamOf(priming)).not.to.equal(undefined);
        clock.runAll();
        expect(await store.streamOf(priming)).to.equal(undefined);
      });

      it('keeps it for undeliveredStreamTtlMs when the client was away', async () => {
        const { stream } = await primed(registry, 's1');
        await stream.finish();
        expect(clock.pending.map(({ ms }) => ms)).to.deep.equal([LIMITS.undeliveredStreamTtlMs]);
      });
    });
  });

  describe('#resume', () => {
    context('when the event id is of another session\'s stream', () => {
      it('refuses, writing nothing', async () => {
        const { priming } = await primed(registry, 's1');
        const res = new FakeResponse();
        expect(await registry.resume('s2', priming, res.asResponse, SSE, held)).to.equal(false);
        expect(res.headersSent).to.equal(false);
      });
    });

    context('when the event id is unknown', () => {
      it('refuses', async () => {
        expect(await registry.resume('s1', 'nothing.1', new FakeResponse().asResponse, SSE, held)).to.equal(false);
      });
    });

    context('when the stream is going on this handler', () => {
      it('replays what the client missed and carries the stream on', async () => {
        const { stream, priming } = await primed(registry, 's1');
        await stream.send(note(1));
        const res = new FakeResponse();
        expect(await registry.resume('s1', priming, res.asResponse, SSE, held)).to.equal(true);
        await stream.send(note(2));
        expect(res.status).to.equal(200);
        expect(res.messages).to.deep.equal([note(1), note(2)]);
      });
    });

    context('when another handler sharing the store writes the stream', () => {
      it('replays the backlog, then follows what the other appends until the stream ends', async () => {
        const writer = new StreamRegistry(store, LIMITS, clock.schedule);
        const { stream, priming } = await primed(writer, 's1');
        await stream.send(note(1));
        const res = new FakeResponse();
        expect(await registry.resume('s1', priming, res.asResponse, SSE, held)).to.equal(true);
        expect(res.messages).to.deep.equal([note(1)]);
        await stream.send(note(2));
        expect(res.messages).to.deep.equal([note(1), note(2)]);
        expect(res.writableEnded).to.equal(false);
        await stream.finish();
        expect(res.writableEnded).to.equal(true);
      });

      it('ends the connections that follow a stream when it closes', async () => {
        const writer = new StreamRegistry(store, LIMITS, clock.schedule);
        const { priming } = await primed(writer, 's1');
        const res = new FakeResponse();
        await registry.resume('s1', priming, res.asResponse, SSE, held);
        await registry.finishAll();
        expect(res.writableEnded).to.equal(true);
      });
    });

    context('when the session\'s standalone stream is written by another handler sharing the store', () => {
      it('takes it over: held before the replay, then written here under the same id, numbered on from the store', async () => {
        const { stream: theirs, priming } = await standaloneOn(new StreamRegistry(store, LIMITS, clock.schedule));
        const res = new FakeResponse();
        let taken: SseStream | undefined;
        const writtenWhenHeld: number[] = [];
        const hold = async (stream: SseStream) => {
          taken = stream;
          writtenWhenHeld.push(res.chunks.length);
        };
        expect(await registry.resume('s1', priming, res.asResponse, SSE, hold)).to.equal(true);
        expect(writtenWhenHeld).to.deep.equal([0]);
        expect(taken!.id).to.equal(theirs.id);
        await taken!.send(note(2));
        expect(res.messages).to.deep.equal([note(1), note(2)]);
        expect(idsOn(res)).to.deep.equal([`${theirs.id}.2`, `${theirs.id}.3`]);
        expect(registry.standaloneOf('s1'), 'this node\'s standalone stream of the session, connected').to.equal(undefined);
      });

      it('writes first what the other appended before it let go, in the store\'s order', async () => {
        const { stream: theirs, priming } = await standaloneOn(new StreamRegistry(store, LIMITS, clock.schedule));
        const res = new FakeResponse();
        let taken: SseStream | undefined;
        await registry.resume('s1', priming, res.asResponse, SSE, async (stream) => { taken = stream; });
        await theirs.send(note(2));
        await taken!.send(note(3));
        expect(res.messages).to.deep.equal([note(1), note(2), note(3)]);
      });
    });

    context('when the session\'s standalone stream ended (its writer shut down)', () => {
      it('only replays it, and ends: nothing is taken over', async () => {
        const { stream: theirs, priming } = await standaloneOn(new StreamRegistry(store, LIMITS, clock.schedule));
        await theirs.finish();
        const res = new FakeResponse();
        let holds = 0;
        expect(await registry.resume('s1', priming, res.asResponse, SSE, async () => { holds += 1; })).to.equal(true);
        expect(res.messages).to.deep.equal([note(1)]);
        expect(res.writableEnded).to.equal(true);
        expect(holds).to.equal(0);
      });
    });
  });

  describe('#letGo', () => {
    context('when another node took this very stream over', () => {
      it('ends its connection, leaves it going in the store for the other (not ended, not dropped), and gives a new stream to the next GET', async () => {
        const stream = registry.standaloneOf('s1')!;
        const res = new FakeResponse();
        stream.attach(res.asResponse);
        await stream.prime();
        const priming = idsOn(res)[0];
        registry.letGo(stream, stream.id);
        await settle();
        expect(res.writableEnded).to.equal(true);
        registry.dropSession('s1');
        clock.runAll();
        await settle();
        expect(await store.streamOf(priming)).to.deep.equal({ id: stream.id, sessionId: 's1', kind: 'standalone' });
        expect(registry.standaloneOf('s1')).not.to.equal(stream);
      });
    });

    context('when the client moved on to another stream of the session', () => {
      it('ends this one', async () => {
        const { stream, priming } = await primed(registry, 's1');
        registry.letGo(stream, 'another-stream');
        await settle();
        expect(stream.finished).to.equal(true);
        expect(await store.streamOf(priming)).to.include({ ended: true });
      });
    });
  });

  describe('#standaloneOf', () => {
    it('gives no stream while a connection carries the session\'s standalone stream, and the same one once the client left', () => {
      const stream = registry.standaloneOf('s1')!;
      const res = new FakeResponse();
      stream.attach(res.asResponse);
      expect(registry.standaloneOf('s1')).to.equal(undefined);
      res.hangUp();
      expect(registry.standaloneOf('s1')).to.equal(stream);
    });

    it('gives a new stream once the last one ended', async () => {
      const stream = registry.standaloneOf('s1')!;
      await stream.finish();
      expect(registry.standaloneOf('s1')).not.to.equal(stream);
    });
  });

  describe('#dropSession', () => {
    it('ends the session\'s streams, its last events stored first, then forgets them, and leaves other sessions\' alone', async () => {
      const res = new FakeResponse();
      const { stream } = await primed(registry, 's1', res, true);
      await primed(registry, 's2');
      void stream.send(note(1));
      registry.dropSession('s1');
      await stream.finish();
      expect(res.messages).to.deep.equal([note(1)]);
      expect(res.writableEnded).to.equal(true);
      expect(store.streamCount).to.equal(1);
    });
  });

  describe('#finishAll', () => {
    it('ends every stream going', async () => {
      const res = new FakeResponse();
      const { stream } = await primed(registry, 's1', res, true);
      registry.standaloneOf('s2');
      await registry.finishAll();
      expect(stream.finished).to.equal(true);
      expect(res.writableEnded).to.equal(true);
    });
  });
});
