import { expect } from 'chai';
import { InMemoryEventStore } from '../../../lib/entries/seams';
import { SseStream } from '../../../lib/transport/http/sse-stream';
import { statelessAnswerStreams } from '../../../lib/transport/http/answer-streams';
import { PostedCall } from '../../../lib/transport/http/http-calls';
import { HttpExchange } from '../../../lib/transport/http/http-exchange';
import { FetchResponse } from '../../../lib/transport/fetch/fetch-response';
import { FakeResponse } from '../../support/fake-response';
import type { UnreadLimit } from '../../../lib/transport/http/unread-watch';

/** 2,000 unread bytes, then the client must take some within 20 ms. */
const LIMIT: UnreadLimit = { maxBytes: 2_000, stallMs: 20 };
const closed = (res: FakeResponse) => new Promise<void>((resolve) => (res.destroyed ? resolve() : res.once('close', () => resolve())));
/** A client reading `bytes` every few milliseconds until stopped. */
function reader(res: FakeResponse, bytes: number) {
  const timer = setInterval(() => { res.writableLength = Math.max(0, res.writableLength - bytes); }, 2);
  return () => clearInterval(timer);
}

/** A stateless-era request POSTed on `res`, as the handler opens it. */
const statelessCall = (res: FakeResponse) => new PostedCall(res.asResponse, new HttpExchange(res.asResponse, {}, statelessAnswerStreams(LIMIT)), 1, true);

const progress = (n: number) => ({ jsonrpc: '2.0' as const, method: 'notifications/progress', params: { progressToken: 't', progress: n, message: 'x'.repeat(200) } });

describe('SSE to a client that stopped reading', () => {
  describe('SseStream', () => {
    context('when its connection holds more unread bytes than the limit and the client takes none', () => {
      it('drops the connection and keeps the stream resumable from the store', async () => {
        const store = new InMemoryEventStore();
        const stream = new SseStream('st-1', 's1', store, 1000, LIMIT);
        const res = new FakeResponse();
        res.stalled = true;
        res.writeHead(200, {});
        stream.attach(res.asResponse);
        for (let n = 1; n <= 20; n += 1) await stream.send(progress(n));
        await closed(res);
        expect(stream.connected).to.equal(false);
        // Every event is stored: a client that comes back with Last-Event-ID gets them all.
        expect(await store.after('st-1.0')).to.have.length(20);
      });
    });

    context('when one event is larger than the limit and the client reads it, slowly', () => {
      it('keeps the connection, and the stream goes on', async () => {
        const stream = new SseStream('st-3', 's1', new InMemoryEventStore(), 1000, LIMIT);
        const res = new FakeResponse();
        res.stalled = true;
        res.writeHead(200, {});
        stream.attach(res.asResponse);
        const stop = reader(res, 100);
        try {
          await stream.send({ jsonrpc: '2.0', id: 1, result: { text: 'z'.repeat(10_000) } });
          // Several stall windows pass while the client works through the event.
          while (res.writableLength > 0) await new Promise((resolve) => setTimeout(resolve, 5));
        } finally {
          stop();
        }
        expect(res.destroyed).to.equal(false);
        expect(stream.connected).to.equal(true);
        await stream.send(progress(2));
        expect(res.messages).to.have.length(2);
      });
    });

    context('when the client reads what it is sent', () => {
      it('keeps the connection whatever it carries', async () => {
        const stream = new SseStream('st-2', 's1', new InMemoryEventStore(), 1000, LIMIT);
        const res = new FakeResponse();
        res.writeHead(200, {});
        stream.attach(res.asResponse);
        for (let n = 1; n <= 20; n += 1) await stream.send(progress(n));
        await new Promise((resolve) => setTimeout(resolve, 3 * LIMIT.stallMs));
        expect(res.destroyed).to.equal(false);
        expect(stream.connected).to.equal(true);
      });
    });
  });

  describe('a stateless-era answer', () => {
    context('when its connection holds more unread bytes than the limit and the client takes none', () => {
      it('drops the connection, which cancels the call as the client closing would', async () => {
        const res = new FakeResponse();
        res.stalled = true;
        const call = statelessCall(res);
        for (let n = 1; n <= 20 && !res.destroyed; n += 1) call.exchange.send(progress(n));
        await closed(res);
        await Promise.resolve();
        expect(call.cancellation.aborted).to.equal(true);
      });
    });

    context('when its answer is larger than the limit and the client reads it', () => {
      it('lets the client read it all', async () => {
        const res = new FakeResponse();
        res.stalled = true;
        const call = statelessCall(res);
        const stop = reader(res, 100);
        try {
          call.exchange.send(progress(1));
          call.respond({ jsonrpc: '2.0', id: 1, result: { text: 'z'.repeat(10_000) } }, 200);
          while (res.writableLength > 0) await new Promise((resolve) => setTimeout(resolve, 5));
        } finally {
          stop();
        }
        expect(res.destroyed).to.equal(false);
        expect(call.cancellation.aborted).to.equal(false);
        expect(res.messages).to.have.length(2);
      });
    });
  });

  describe('FetchResponse#writableLength', () => {
    it('counts the bytes its reader has not taken, and nothing once they are read', async () => {
      const res = new FetchResponse();
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('a'.repeat(100_000));
      expect(res.writableLength).to.equal(100_000);
      const reader = (await res.response).body!.getReader();
      await reader.read();
      expect(res.writableLength).to.equal(0);
      res.destroy();
      expect(res.destroyed).to.equal(true);
    });
  });
});
