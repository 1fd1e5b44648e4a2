import { expect } from 'chai';
import type { JsonRpcMessage } from '../../../lib/core/jsonrpc';
import { InMemoryEventStore, type StoredEvent, type StreamFollower } from '../../../lib';

const A = { id: 'stream-a', sessionId: 'session-1' };
const B = { id: 'stream-b', sessionId: 'session-2' };
const note = (n: number): JsonRpcMessage => ({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 't', progress: n } });

/** A follower that records what it hears. */
class Recorder implements StreamFollower {
  readonly events: StoredEvent[] = [];
  ends = 0;
  event(event: StoredEvent): void { this.events.push(event); }
  end(): void { this.ends += 1; }
  get messages(): JsonRpcMessage[] { return this.events.map((event) => event.message); }
}

describe('InMemoryEventStore', () => {
  let store: InMemoryEventStore;
  beforeEach(() => { store = new InMemoryEventStore(); });

  describe('#streamOf', () => {
    it('names the stream of an event id and the session that stream belongs to', async () => {
      const id = await store.append(A, null);
      await store.append(B, note(1));
      expect(await store.streamOf(id)).to.deep.equal(A);
    });

    it('knows no stream for an id it never gave out, or one of a dropped stream', async () => {
      const id = await store.append(A, note(1));
      expect(await store.streamOf('stream-z.1')).to.equal(undefined);
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
        store = new InMemoryEventStore({ maxEventsPerStream: 2 });
        const priming = await store.append(A, null);
        for (const n of [1, 2, 3]) await store.append(A, note(n));
        expect((await store.after(priming)).map((event) => event.message)).to.deep.equal([note(2), note(3)]);
      });
    });
  });

  describe('#tail', () => {
    it('delivers the stored events, then each one appended later, once each and in order', async () => {
      const priming = await store.append(A, null);
      await store.append(A, note(1));
      const follower = new Recorder();
      store.tail(priming, follower);
      expect(follower.messages).to.deep.equal([note(1)]);
      await store.append(A, note(2));
      await store.append(B, note(9));
      await store.append(A, note(3));
      expect(follower.messages).to.deep.equal([note(1), note(2), note(3)]);
      expect(follower.events.map((event) => event.id)).to.deep.equal((await store.after(priming)).map((event) => event.id));
      expect(follower.ends).to.equal(0);
    });

    it('ends the follower when the stream ends, after its last event', async () => {
      const priming = await store.append(A, null);
      const follower = new Recorder();
      store.tail(priming, follower);
      await store.append(A, note(1));
      await store.end(A.id);
      expect(follower.messages).to.deep.equal([note(1)]);
      expect(follower.ends).to.equal(1);
      await store.append(A, note(2));
      expect(follower.messages).to.deep.equal([note(1)]);
    });

    it('ends the follower when the stream is dropped', async () => {
      const priming = await store.append(A, null);
      const follower = new Recorder();
      store.tail(priming, follower);
      await store.dropStream(A.id);
      expect(follower.ends).to.equal(1);
    });

    it('replays an ended stream and ends at once', async () => {
      const priming = await store.append(A, null);
      await store.append(A, note(1));
      await store.end(A.id);
      const follower = new Recorder();
      store.tail(priming, follower);
      expect(follower.messages).to.deep.equal([note(1)]);
      expect(follower.ends).to.equal(1);
    });

    it('ends at once for an unknown event id', () => {
      const follower = new Recorder();
      store.tail('stream-z.4', follower);
      expect(follower.ends).to.equal(1);
    });

    it('stops delivering once stopped', async () => {
      const priming = await store.append(A, null);
      const follower = new Recorder();
      const stop = store.tail(priming, follower);
      stop();
      await store.append(A, note(1));
      await store.end(A.id);
      expect(follower.messages).to.deep.equal([]);
      expect(follower.ends).to.equal(0);
    });
  });

  describe('#dropStream', () => {
    it('forgets the stream and its session', async () => {
      await store.append(A, note(1));
      await store.append(B, note(2));
      await store.dropStream(A.id);
      expect(store.streamCount).to.equal(1);
    });
  });
});
