import { expect } from 'chai';
import { InMemoryEventStore } from '../../../lib/entries/seams';
import type { JsonRpcMessage } from '../../../lib/core/jsonrpc';
import type { EventStore } from '../../../lib/protocol/seams/event-store';
import { SseStream } from '../../../lib/transport/http/sse-stream';
import { FakeResponse } from '../../support/fake-response';

const note = (n: number): JsonRpcMessage => ({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: n } });

/** A connection whose headers are written, as the handler hands it over. */
function connection(): FakeResponse {
  const res = new FakeResponse();
  res.writeHead(200, {});
  return res;
}

/** The `id:` lines written on `res`, in order. */
const idsOn = (res: FakeResponse) => res.text.split('\n').filter((line) => line.startsWith('id: ')).map((line) => line.slice(4));

describe('SseStream', () => {
  let store: InMemoryEventStore;
  let stream: SseStream;

  beforeEach(() => {
    store = new InMemoryEventStore();
    stream = new SseStream('st-1', 'session-1', store, 1500);
  });

  describe('#prime', () => {
    it('writes an event with a stored id, the retry delay and no message', async () => {
      const res = connection();
      stream.attach(res.asResponse);
      await stream.prime();
      const [id] = idsOn(res);
      expect(res.text).to.equal(`id: ${id}\nretry: 1500\ndata: \n\n`);
      expect(res.messages).to.deep.equal([]);
      await stream.send(note(1));
      expect((await store.after(id)).map((event) => event.message)).to.deep.equal([note(1)]);
    });
  });

  describe('#send', () => {
    it('stores each message, then writes it with its id, in order', async () => {
      const res = connection();
      stream.attach(res.asResponse);
      for (const n of [1, 2, 3]) await stream.send(note(n));
      expect(res.messages).to.deep.equal([note(1), note(2), note(3)]);
      const ids = idsOn(res);
      expect(ids).to.have.length(3);
      expect((await store.after(ids[0])).map((event) => event.id)).to.deep.equal(ids.slice(1));
    });

    context('when no connection carries the stream', () => {
      it('keeps the message in the store for the client to resume from', async () => {
        expect(stream.connected).to.equal(false);
        const primed = connection();
        stream.attach(primed.asResponse);
        await stream.prime();
        primed.hangUp();
        expect(stream.connected).to.equal(false);
        await stream.send(note(1));
        await stream.send(note(2));
        const resumed = connection();
        await stream.resume(resumed.asResponse, idsOn(primed)[0]);
        expect(resumed.messages).to.deep.equal([note(1), note(2)]);
      });
    });

    context('when another node appended to the stream since its last event (a stream taken over)', () => {
      it('writes those events first, so the connection carries the store\'s order', async () => {
        const res = connection();
        stream.attach(res.asResponse);
        await stream.send(note(1));
        await store.append(stream, note(2));
        await stream.send(note(3));
        expect(res.messages).to.deep.equal([note(1), note(2), note(3)]);
      });
    });

    context('when the store fails one step', () => {
      it('still runs the steps after it', async () => {
        let failNext = true;
        const flaky: EventStore = Object.create(store, {
          append: { value: (ref: never, message: JsonRpcMessage | null) => (failNext ? (failNext = false, Promise.reject(new Error('store away'))) : store.append(ref, message)) },
        });
        const res = connection();
        const onFlaky = new SseStream('st-2', 'session-1', flaky, 1000);
        onFlaky.attach(res.asResponse);
        await onFlaky.send(note(1));
        await onFlaky.send(note(2));
        expect(res.messages).to.deep.equal([note(2)]);
      });
    });
  });

  describe('#attach', () => {
    it('moves the stream to the new connection and ends the one before', async () => {
      const first = connection();
      const second = connection();
      stream.attach(first.asResponse);
      stream.attach(second.asResponse);
      expect(first.writableEnded).to.equal(true);
      await stream.send(note(1));
      expect(first.messages).to.deep.equal([]);
      expect(second.messages).to.deep.equal([note(1)]);
    });

    context('when the connection is already gone', () => {
      it('does not take it', () => {
        const gone = connection();
        gone.hangUp();
        stream.attach(gone.asResponse);
        expect(stream.connected).to.equal(false);
      });
    });

    context('when an earlier connection closes after a new one took over', () => {
      it('stays on the new one', () => {
        const first = connection();
        const second = connection();
        stream.attach(first.asResponse);
        stream.attach(second.asResponse);
        first.hangUp();
        expect(stream.connected).to.equal(true);
      });
    });
  });

  describe('#resume', () => {
    it('writes only what came after the given event id, then carries new events', async () => {
      const res = connection();
      stream.attach(res.asResponse);
      for (const n of [1, 2, 3]) await stream.send(note(n));
      const resumed = connection();
      await stream.resume(resumed.asResponse, idsOn(res)[0]);
      await stream.send(note(4));
      expect(resumed.messages).to.deep.equal([note(2), note(3), note(4)]);
      expect(res.writableEnded).to.equal(true);
    });
  });

  describe('#finish', () => {
    it('marks the end in the store, ends the connection and reports the last event delivered', async () => {
      const delivered: boolean[] = [];
      stream.onFinished = (was) => delivered.push(was);
      const res = connection();
      stream.attach(res.asResponse);
      await stream.send(note(1));
      await stream.finish();
      expect(stream.finished).to.equal(true);
      expect(res.writableEnded).to.equal(true);
      expect(delivered).to.deep.equal([true]);
      expect(stream.connected).to.equal(false);
    });

    it('reports it undelivered when no connection carried it, and does nothing the second time', async () => {
      const delivered: boolean[] = [];
      stream.onFinished = (was) => delivered.push(was);
      await stream.send(note(1));
      await stream.finish();
      await stream.finish();
      expect(delivered).to.deep.equal([false]);
    });
  });

  describe('#disconnect', () => {
    it('ends the connection but not the stream: later events wait in the store', async () => {
      const res = connection();
      stream.attach(res.asResponse);
      await stream.send(note(1));
      await stream.disconnect();
      expect(res.writableEnded).to.equal(true);
      expect(stream.finished).to.equal(false);
      await stream.send(note(2));
      const resumed = connection();
      await stream.resume(resumed.asResponse, idsOn(res)[0]);
      expect(resumed.messages).to.deep.equal([note(2)]);
    });
  });

  // The cap on unread bytes (maxBufferedBytes) is specified beside the other writers' in sse-backpressure.spec.ts.
});
