import { expect } from 'chai';
import { InMemoryEventStore } from '../../../lib';
import { SseStream } from '../../../lib/transport/http/sse-stream';
import { StatelessExchange } from '../../../lib/transport/http/stateless-exchange';
import { FetchResponse } from '../../../lib/transport/fetch/fetch-response';
import { FakeResponse } from '../../support/fake-response';

const progress = (n: number) => ({ jsonrpc: '2.0' as const, method: 'notifications/progress', params: { progressToken: 't', progress: n, message: 'x'.repeat(200) } });

describe('SSE to a client that stopped reading', () => {
  describe('SseStream', () => {
    context('when its connection holds more unread bytes than the limit', () => {
      it('drops the connection and keeps the stream resumable from the store', async () => {
        const store = new InMemoryEventStore();
        const stream = new SseStream('st-1', 's1', store, 1000, 2_000);
        const res = new FakeResponse();
        res.stalled = true;
        res.writeHead(200, {});
        stream.attach(res.asResponse);
        for (let n = 1; n <= 20; n += 1) await stream.send(progress(n));
        expect(res.destroyed).to.equal(true);
        expect(stream.connected).to.equal(false);
        expect(res.writableLength).to.be.below(4_000);
        // Every event is stored: a client that comes back with Last-Event-ID gets them all.
        expect(await store.after('st-1.0')).to.have.length(20);
      });
    });

    context('when the client reads what it is sent', () => {
      it('keeps the connection whatever it carries', async () => {
        const stream = new SseStream('st-2', 's1', new InMemoryEventStore(), 1000, 2_000);
        const res = new FakeResponse();
        res.writeHead(200, {});
        stream.attach(res.asResponse);
        for (let n = 1; n <= 20; n += 1) await stream.send(progress(n));
        expect(res.destroyed).to.equal(false);
        expect(stream.connected).to.equal(true);
      });
    });
  });

  describe('StatelessExchange', () => {
    context('when its connection holds more unread bytes than the limit', () => {
      it('drops the connection, which cancels the call as the client closing would', async () => {
        const res = new FakeResponse();
        res.stalled = true;
        const exchange = new StatelessExchange(res.asResponse, {}, 1, 2_000);
        for (let n = 1; n <= 20 && !res.destroyed; n += 1) exchange.send(progress(n));
        expect(res.destroyed).to.equal(true);
        await Promise.resolve();
        expect(exchange.cancellation.aborted).to.equal(true);
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
