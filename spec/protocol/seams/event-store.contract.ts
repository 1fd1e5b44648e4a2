import { expect } from 'chai';
import type { JsonRpcMessage } from '../../../lib/core/jsonrpc';
import { uniqueId } from '../../../lib/core/unique-id';
import type { EventStore, StoredEvent, StreamFollower, StreamRef } from '../../../lib/entries/seams';

export interface EventStoreHarness {
  /** A fresh, empty store (a shared backend gets a fresh namespace). */
  open(options?: { maxEventsPerStream?: number }): EventStore | Promise<EventStore>;
}

export const note = (n: number): JsonRpcMessage => ({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 't', progress: n } });

/**
 * A follower that records what it hears, and lets a spec wait for it: a store may deliver after
 * `tail` returned (Redis reads and notifications take a round trip).
 */
export class Recorder implements StreamFollower {
  readonly events: StoredEvent[] = [];
  ends = 0;
  private readonly waiters = new Set<() => void>();

  event(event: StoredEvent): void {
    this.events.push(event);
    this.wake();
  }

  end(): void {
    this.ends += 1;
    this.wake();
  }

  get messages(): JsonRpcMessage[] {
    return this.events.map((event) => event.message);
  }

  /** Resolves once `count` events were heard; fails, saying what was heard, after `withinMs`. */
  heard(count: number, withinMs = 3_000): Promise<void> {
    return this.until(() => this.events.length >= count, `${count} events`, withinMs);
  }

  /** Resolves once `end` was heard. */
  ended(withinMs = 3_000): Promise<void> {
    return this.until(() => this.ends > 0, 'the end', withinMs);
  }

  private until(done: () => boolean, what: string, withinMs: number): Promise<void> {
    if (done()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const check = () => {
        if (!done()) return;
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve();
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`the follower did not hear ${what} within ${withinMs} ms (heard ${this.events.length} events, ${this.ends} ends)`));
      }, withinMs);
      this.waiters.add(check);
    });
  }

  private wake(): void {
    for (const waiter of [...this.waiters]) waiter();
  }
}

/**
 * The behaviour every `EventStore` owes SSE resumption, run against `harness`: call it inside a
 * `describe` of the store. A store on a shared backend (Redis) delivers to followers
 * asynchronously, so the specs wait for what a follower hears, and check that nothing more came
 * by waiting for a later follower of the same stream to have heard the end.
 */
export function behavesAsEventStore(harness: EventStoreHarness): void {
  let store: EventStore;
  let A: StreamRef;
  let B: StreamRef;

  beforeEach(async () => {
    store = await harness.open();
    A = { id: `stream-${uniqueId()}`, sessionId: 'session-1' };
    B = { id: `stream-${uniqueId()}`, sessionId: 'session-2' };
  });

  /** Follows `from` with a fresh follower, and waits for the end (of an ended stream). */
  async function replayToEnd(from: string): Promise<Recorder> {
    const late = new Recorder();
    store.tail(from, late);
    await late.ended();
    return late;
  }

  describe('#append', () => {
    it('gives each event an id of its own that names its stream', async () => {
      const ids = [await store.append(A, null), await store.append(A, note(1)), await store.append(B, note(1)), await store.append(A, note(2))];
      expect(new Set(ids).size).to.equal(4);
      for (const id of ids.slice(0, 2)) expect(await store.streamOf(id)).to.deep.equal(A);
    });

    context('when several writers append to one stream at once (two nodes, while one takes the stream over)', () => {
      it('numbers each event once, and replays each under the id its append gave', async () => {
        const ids = await Promise.all(Array.from({ length: 20 }, (_, n) => store.append({ ...A }, note(n))));
        expect(new Set(ids).size).to.equal(20);
        const replayed = await store.after(`${A.id}.0`);
        expect(replayed.map((event) => event.id).sort()).to.deep.equal([...ids].sort());
        for (const event of replayed) expect(event.message).to.deep.equal(note(ids.indexOf(event.id)));
      });
    });
  });

  describe('#streamOf', () => {
    it('names the stream of an event id and the session that stream belongs to', async () => {
      const id = await store.append(A, null);
      await store.append(B, note(1));
      expect(await store.streamOf(id)).to.deep.equal(A);
    });

    it('names a session\'s standalone stream as such, with the kind its first append gave', async () => {
      const standalone: StreamRef = { id: `stream-${uniqueId()}`, sessionId: 'session-1', kind: 'standalone' };
      const priming = await store.append(standalone, null);
      await store.append({ id: standalone.id, sessionId: 'session-1' }, note(1));
      await store.append(A, note(1));
      expect(await store.streamOf(priming)).to.deep.equal(standalone);
      expect(await store.streamOf(`${A.id}.1`)).to.deep.equal(A);
    });

    it('says a stream ended once its writer marked the end', async () => {
      const id = await store.append(A, note(1));
      await store.end(A.id);
      expect(await store.streamOf(id)).to.deep.equal({ ...A, ended: true });
    });

    it('knows no stream for an id it never gave out, or one of a dropped stream', async () => {
      const id = await store.append(A, note(1));
      expect(await store.streamOf(`stream-${uniqueId()}.1`)).to.equal(undefined);
      expect(await store.streamOf('no dot')).to.equal(undefined);
      await store.dropStream(A.id);
      expect(await store.streamOf(id)).to.equal(undefined);
    });
  });

  describe('#after', () => {
    it('replays the events of the same stream after the given one, in order, the priming event giving none', async () => {
      const priming = await store.append(A, null);
      await store.append(A, note(1));
      await store.append(B, note(9));
      const second = await store.append(A, note(2));
      expect((await store.after(priming)).map((event) => event.message)).to.deep.equal([note(1), note(2)]);
      expect((await store.after(priming)).map((event) => event.id)).to.include(second);
    });

    context('when a stream holds more than maxEventsPerStream events', () => {
      it('keeps the newest ones only', async () => {
        store = await harness.open({ maxEventsPerStream: 2 });
        const priming = await store.append(A, null);
        for (const n of [1, 2, 3]) await store.append(A, note(n));
        expect((await store.after(priming)).map((event) => event.message)).to.deep.equal([note(2), note(3)]);
      });
    });

    context('when the stream ended', () => {
      it('replays what came before the end, and nothing appended after it', async () => {
        const priming = await store.append(A, null);
        await store.append(A, note(1));
        await store.end(A.id);
        await store.append(A, note(2));
        expect((await store.after(priming)).map((event) => event.message)).to.deep.equal([note(1)]);
      });
    });
  });

  describe('#tail', () => {
    it('delivers the stored events, then each one appended later, once each and in order', async () => {
      const priming = await store.append(A, null);
      await store.append(A, note(1));
      const follower = new Recorder();
      store.tail(priming, follower);
      await follower.heard(1);
      expect(follower.messages).to.deep.equal([note(1)]);
      await store.append(A, note(2));
      await store.append(B, note(9));
      await store.append(A, note(3));
      await follower.heard(3);
      expect(follower.ends).to.equal(0);
      await store.end(A.id);
      await follower.ended();
      expect(follower.messages).to.deep.equal([note(1), note(2), note(3)]);
      expect(follower.events.map((event) => event.id)).to.deep.equal((await store.after(priming)).map((event) => event.id));
    });

    context('when events are appended while the follower joins', () => {
      it('misses none and repeats none', async () => {
        const priming = await store.append(A, null);
        const follower = new Recorder();
        store.tail(priming, follower);
        const numbers = Array.from({ length: 20 }, (_, i) => i + 1);
        for (const n of numbers) await store.append(A, note(n));
        await store.end(A.id);
        await follower.ended();
        expect(follower.messages).to.deep.equal(numbers.map(note));
      });
    });

    context('when the stream ends as the follower joins', () => {
      it('delivers the last event and ends', async () => {
        const priming = await store.append(A, null);
        const follower = new Recorder();
        store.tail(priming, follower);
        await Promise.all([store.append(A, note(1)), store.end(A.id)]);
        await follower.ended();
        expect(follower.messages).to.deep.equal([note(1)]);
      });
    });

    it('ends the follower when the stream ends, after its last event', async () => {
      const priming = await store.append(A, null);
      const follower = new Recorder();
      store.tail(priming, follower);
      await store.append(A, note(1));
      await store.end(A.id);
      await follower.ended();
      expect(follower.messages).to.deep.equal([note(1)]);
      await store.append(A, note(2));
      await replayToEnd(priming);
      expect(follower.messages).to.deep.equal([note(1)]);
      expect(follower.ends).to.equal(1);
    });

    it('ends the follower when the stream is dropped', async () => {
      const priming = await store.append(A, null);
      const follower = new Recorder();
      store.tail(priming, follower);
      await store.dropStream(A.id);
      await follower.ended();
      expect(follower.ends).to.equal(1);
    });

    it('replays an ended stream and ends', async () => {
      const priming = await store.append(A, null);
      await store.append(A, note(1));
      await store.end(A.id);
      const follower = await replayToEnd(priming);
      expect(follower.messages).to.deep.equal([note(1)]);
      expect(follower.ends).to.equal(1);
    });

    it('ends for an unknown event id, or one no store gives out', async () => {
      for (const id of [`stream-${uniqueId()}.4`, 'no dot']) {
        const follower = await replayToEnd(id);
        expect(follower.events).to.deep.equal([]);
      }
    });

    it('stops delivering once stopped', async () => {
      const priming = await store.append(A, null);
      const follower = new Recorder();
      const stop = store.tail(priming, follower);
      const staying = new Recorder();
      store.tail(priming, staying);
      stop();
      await store.append(A, note(1));
      await store.end(A.id);
      await staying.ended();
      expect(staying.messages).to.deep.equal([note(1)]);
      expect(follower.messages).to.deep.equal([]);
      expect(follower.ends).to.equal(0);
    });
  });

  describe('#dropStream', () => {
    it('forgets the stream and its session, and no other', async () => {
      const dropped = await store.append(A, note(1));
      const kept = await store.append(B, null);
      await store.append(B, note(2));
      await store.dropStream(A.id);
      expect(await store.streamOf(dropped)).to.equal(undefined);
      expect(await store.after(`${A.id}.0`)).to.deep.equal([]);
      expect(await store.streamOf(kept)).to.deep.equal(B);
      expect((await store.after(kept)).map((event) => event.message)).to.deep.equal([note(2)]);
    });
  });
}
