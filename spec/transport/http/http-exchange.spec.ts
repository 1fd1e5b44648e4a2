import { expect } from 'chai';
import { InMemoryEventStore } from '../../../lib/entries/seams';
import type { JsonRpcMessage, JsonRpcResponse } from '../../../lib/core/jsonrpc';
import { sessionAnswerStreams, statelessAnswerStreams, type StreamFactory } from '../../../lib/transport/http/answer-streams';
import { PostedCall } from '../../../lib/transport/http/http-calls';
import { HttpExchange } from '../../../lib/transport/http/http-exchange';
import { SseStream } from '../../../lib/transport/http/sse-stream';
import { FakeResponse } from '../../support/fake-response';

const note: JsonRpcMessage = { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 't', progress: 1 } };
const response: JsonRpcResponse = { jsonrpc: '2.0', id: 7, result: { ok: true } };
/** An allowed browser's CORS headers, which every answer carries beside the session's id. */
const CORS = { 'access-control-allow-origin': 'http://localhost:5173' };

/** Session-era streams, each kept so that a spec can wait for what it wrote. */
class Streams implements StreamFactory {
  readonly opened: SseStream[] = [];
  private readonly store = new InMemoryEventStore();

  open(sessionId: string): SseStream {
    const stream = new SseStream(`st-${this.opened.length}`, sessionId, this.store, 1000);
    this.opened.push(stream);
    return stream;
  }

  /** Resolves once every stream has written what it was given and ended. */
  async written(): Promise<void> {
    await Promise.all(this.opened.map((stream) => stream.finish()));
  }
}

const idLines = (res: FakeResponse) => res.text.split('\n').filter((line) => line.startsWith('id: '));

describe('HttpExchange', () => {
  context('in the session era', () => {
    let res: FakeResponse;
    let streams: Streams;
    let exchange: HttpExchange;

    beforeEach(() => {
      res = new FakeResponse();
      streams = new Streams();
      exchange = new HttpExchange(res.asResponse, CORS, sessionAnswerStreams(streams), 's-1');
    });

    context('when only the response goes out', () => {
      it('answers with JSON, with the status and headers given', () => {
        exchange.respond(response, 403, { 'www-authenticate': 'Bearer' });
        expect(res.status).to.equal(403);
        expect(res.headers).to.include({ 'content-type': 'application/json', 'mcp-session-id': 's-1', 'www-authenticate': 'Bearer' });
        expect(JSON.parse(res.text)).to.deep.equal(response);
        expect(streams.opened).to.have.length(0);
      });
    });

    context('when only the response goes out, with no headers of its own', () => {
      it('answers with JSON naming the session, with the CORS headers', () => {
        exchange.respond(response);
        expect(res.status).to.equal(200);
        expect(res.headers).to.include({ 'content-type': 'application/json', 'mcp-session-id': 's-1', ...CORS });
        expect(JSON.parse(res.text)).to.deep.equal(response);
      });
    });

    context('when a message must go out before the response', () => {
      it('turns into a resumable event stream of the session, which the response ends', async () => {
        exchange.send(note);
        exchange.respond(response, 403);
        await streams.written();
        expect(res.status).to.equal(200);
        expect(res.headers).to.include({ 'content-type': 'text/event-stream', 'mcp-session-id': 's-1', ...CORS });
        expect(res.messages).to.deep.equal([note, response]);
        // Priming event, message, response: each with an id to resume from.
        expect(idLines(res)).to.have.length(3);
        expect(res.writableEnded).to.equal(true);
        expect(exchange.open).to.equal(false);
      });
    });

    context('when the request ends with no answer (cancelled)', () => {
      it('answers with an event stream that ends at once', () => {
        exchange.abandon();
        expect(res.status).to.equal(200);
        expect(res.headers).to.include({ 'content-type': 'text/event-stream', 'mcp-session-id': 's-1', ...CORS });
        expect(res.text).to.equal('');
        expect(res.writableEnded).to.equal(true);
      });
    });

    context('when the client has gone before anything is sent', () => {
      it('still stores what is sent, for the client to resume', async () => {
        res.hangUp();
        expect(exchange.open).to.equal(false);
        exchange.send(note);
        await streams.written();
        expect(streams.opened).to.have.length(1);
        expect(res.chunks).to.deep.equal([]);
      });
    });
  });

  context('in the stateless era', () => {
    let res: FakeResponse;
    let exchange: HttpExchange;

    beforeEach(() => {
      res = new FakeResponse();
      exchange = new HttpExchange(res.asResponse, {}, statelessAnswerStreams());
    });

    context('when only the response goes out', () => {
      it('answers with JSON', () => {
        exchange.respond(response, 200);
        expect(res.headers).to.include({ 'content-type': 'application/json' });
        expect(JSON.parse(res.text)).to.deep.equal(response);
      });
    });

    context('when a message must go out before the response', () => {
      it('turns into an event stream on the connection, without ids (the era has no resumption)', () => {
        exchange.send(note);
        exchange.respond(response, 403);
        expect(res.status).to.equal(200);
        expect(res.headers).to.include({ 'content-type': 'text/event-stream' });
        expect(res.messages).to.deep.equal([note, response]);
        expect(idLines(res)).to.deep.equal([]);
        expect(res.writableEnded).to.equal(true);
      });
    });

    context('when the request ends with no answer (cancelled, or a listen stream left)', () => {
      it('answers 204', () => {
        exchange.abandon();
        expect(res.status).to.equal(204);
        expect(res.writableEnded).to.equal(true);
      });
    });

    context('when the client has gone', () => {
      it('writes nothing', () => {
        res.hangUp();
        exchange.send(note);
        exchange.respond(response, 200);
        expect(res.chunks).to.deep.equal([]);
        expect(res.headersSent).to.equal(false);
      });
    });

    context('when asked to disconnect', () => {
      it('does nothing: there is no stream to resume', async () => {
        await exchange.disconnect();
        expect(res.headersSent).to.equal(false);
        exchange.respond(response, 200);
        expect(res.headers).to.include({ 'content-type': 'application/json' });
      });
    });
  });
});

describe('PostedCall', () => {
  context('in the stateless era, when the client closes the connection before the answer', () => {
    it('cancels the request', () => {
      const res = new FakeResponse();
      const call = new PostedCall(res.asResponse, new HttpExchange(res.asResponse, {}, statelessAnswerStreams()), 1, true);
      res.hangUp();
      expect(call.cancellation.aborted).to.equal(true);
    });
  });

  context('in the stateless era, when the connection closes once answered', () => {
    it('leaves the request alone', () => {
      const res = new FakeResponse();
      const call = new PostedCall(res.asResponse, new HttpExchange(res.asResponse, {}, statelessAnswerStreams()), 1, true);
      call.respond(response, 200);
      expect(call.cancellation.aborted).to.equal(false);
    });
  });

  context('in the session era, when the client closes the connection', () => {
    it('leaves the request running (the client may resume its stream)', () => {
      const res = new FakeResponse();
      const call = new PostedCall(res.asResponse, new HttpExchange(res.asResponse, CORS, sessionAnswerStreams(new Streams()), 's-1'), 1);
      res.hangUp();
      expect(call.cancellation.aborted).to.equal(false);
    });
  });

  describe('#giveUp', () => {
    it('cancels the request and answers it with the error and its id', () => {
      const res = new FakeResponse();
      const call = new PostedCall(res.asResponse, new HttpExchange(res.asResponse, {}, statelessAnswerStreams()), 9, true);
      const reason = new Error('closing');
      call.giveUp(reason, { code: -32000, message: 'shutting down' });
      expect(call.cancellation.reason).to.equal(reason);
      expect(JSON.parse(res.text)).to.deep.equal({ jsonrpc: '2.0', id: 9, error: { code: -32000, message: 'shutting down' } });
    });
  });
});
