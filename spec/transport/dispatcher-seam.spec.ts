import { expect } from 'chai';
import { PassThrough } from 'node:stream';
import { SILENT_DIAGNOSTICS, StdioTransport } from '../../lib';
import { StoreUnavailableError } from '../../lib/core/errors';
import type { Arrival } from '../../lib/protocol/arrival';
import type { DispatchOutcome } from '../../lib/protocol/dispatch-outcome';
import type { Dispatcher } from '../../lib/protocol/dispatcher';
import { StreamableHttpHandler } from '../../lib/transport/http/streamable-http.handler';
import { StreamConnection } from '../../lib/transport/pipe/stream-connection';
import { FakeResponse } from '../support/fake-response';

type Dispatch = (value: unknown, arrival: Arrival) => DispatchOutcome | Promise<DispatchOutcome>;

/** Just what the transports ask of the dispatcher on a POST or a line, with `dispatch` as given. */
function dispatcherWith(dispatch: Dispatch, errors: unknown[] = []): Dispatcher {
  return {
    diagnostics: { ...SILENT_DIAGNOSTICS, error: (_message: string, error?: unknown) => void errors.push(error) },
    dispatch,
    onSessionEnded: () => () => {},
    unbind: async () => {},
  } as unknown as Dispatcher;
}

const PING = '{"jsonrpc":"2.0","id":1,"method":"ping"}';
const PONG = { jsonrpc: '2.0' as const, id: 1, result: {} };
const HEADERS = { host: '127.0.0.1', 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** A POST whose body a host's parser already read, as the handler meets it behind Express. */
function parsedPost(): never {
  return { method: 'POST', url: '/mcp', headers: HEADERS, rawHeaders: Object.entries(HEADERS).flat(), complete: true, readableEnded: true, readableDidRead: true, destroyed: false } as never;
}

/**
 * The seam between the transports and the dispatcher: `dispatch` may return its outcome, or a
 * promise of it (when something had to wait). Both are served alike.
 */
describe('the transports and Dispatcher#dispatch', () => {
  for (const [how, wrap] of [['at once', (o: DispatchOutcome) => o], ['with a promise', (o: DispatchOutcome) => Promise.resolve(o)]] as const) {
    context(`when the dispatcher answers ${how}`, () => {
      it('the HTTP handler writes the answer before its promise settles', async () => {
        const handler = new StreamableHttpHandler(dispatcherWith(() => wrap({ kind: 'answer', response: PONG })));
        const res = new FakeResponse();
        await handler.handle(parsedPost(), res as never, PING);
        expect(res.status).to.equal(200);
        expect(JSON.parse(res.text)).to.deep.equal(PONG);
      });

      it('the pipe writes the answer', async () => {
        const input = new PassThrough();
        const output = new PassThrough();
        const connection = new StreamConnection(dispatcherWith(() => wrap({ kind: 'answer', response: PONG })), new StdioTransport({ input, output }));
        await connection.start();
        input.end(`${PING}\n`);
        await connection.done;
        expect(JSON.parse(String(output.read()))).to.deep.equal(PONG);
      });
    });
  }

  for (const [how, fail] of [['throws', (error: Error) => { throw error; }], ['rejects', (error: Error) => Promise.reject(error)]] as const) {
    context(`when the dispatcher ${how}`, () => {
      it('the HTTP handler answers 500 with -32603 and reports it, its promise resolved', async () => {
        const errors: unknown[] = [];
        const handler = new StreamableHttpHandler(dispatcherWith(() => fail(new Error('boom')), errors));
        const res = new FakeResponse();
        await handler.handle(parsedPost(), res as never, PING);
        expect(res.status).to.equal(500);
        expect(JSON.parse(res.text).error.code).to.equal(-32603);
        expect(errors).to.have.length(1);
      });

      it('the HTTP handler answers 503 with Retry-After when the shared store is away', async () => {
        const handler = new StreamableHttpHandler(dispatcherWith(() => fail(new StoreUnavailableError('redis_unavailable', 'redis down'))));
        const res = new FakeResponse();
        await handler.handle(parsedPost(), res as never, PING);
        expect(res.status).to.equal(503);
        expect(res.headers).to.include({ 'retry-after': '1' });
      });

      it('the pipe reports it and takes the next message', async () => {
        const errors: unknown[] = [];
        let calls = 0;
        const dispatch: Dispatch = () => (calls++ === 0 ? fail(new Error('boom')) : { kind: 'answer', response: PONG });
        const input = new PassThrough();
        const output = new PassThrough();
        const connection = new StreamConnection(dispatcherWith(dispatch, errors), new StdioTransport({ input, output }));
        await connection.start();
        input.end(`${PING}\n${PING}\n`);
        await connection.done;
        expect(errors).to.have.length(1);
        expect(JSON.parse(String(output.read()))).to.deep.equal(PONG);
      });
    });
  }
});
