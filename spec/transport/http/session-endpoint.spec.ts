import { expect } from 'chai';
import type { IncomingMessage } from 'node:http';
import { InMemoryEventStore, type SessionState } from '../../../lib/entries/seams';
import type { JsonRpcMessage } from '../../../lib/core/jsonrpc';
import type { StandaloneStream, StandaloneSink } from '../../../lib/protocol/in-flight';
import type { RequestContext } from '../../../lib/transport/http/request-gate';
import { SessionEndpoint, type SessionEndpointDeps } from '../../../lib/transport/http/session-endpoint';
import { StreamRegistry } from '../../../lib/transport/http/stream-registry';
import { UNLIMITED } from '../../../lib/transport/http/unread-watch';
import { FakeResponse } from '../../support/fake-response';

const STATE: SessionState = { id: 's1', protocolVersion: '2025-11-25', clientCapabilities: {}, initialized: true, subscriptions: [], createdAt: 0, lastActiveAt: 0 };
const CONTEXT: RequestContext<unknown> = { verb: undefined, principal: undefined, cors: {}, sessionId: 's1', version: undefined };
const NOTE: JsonRpcMessage = { jsonrpc: '2.0', method: 'notifications/tools/list_changed' };

function request(headers: Record<string, string> = { accept: 'text/event-stream' }): IncomingMessage {
  return { headers } as unknown as IncomingMessage;
}

/** The protocol side as the endpoint sees it, recording what it is asked. */
class FakeLifecycle {
  readonly sinks = new Map<string, StandaloneSink>();
  readonly ended: string[] = [];
  kept = 0;
  keepAlive(): () => void {
    this.kept += 1;
    return () => { this.kept -= 1; };
  }
  async holdStandalone(sessionId: string, stream: StandaloneStream): Promise<void> {
    this.sinks.set(sessionId, stream.send);
  }
  async endSession(id: string): Promise<boolean> {
    this.ended.push(id);
    return true;
  }
}

describe('SessionEndpoint', () => {
  let lifecycle: FakeLifecycle;
  let streams: StreamRegistry;
  let closing: boolean;
  let endpoint: SessionEndpoint;
  const make = (overrides: Partial<SessionEndpointDeps> = {}) => new SessionEndpoint({
    lifecycle, streams, session: async () => STATE, closing: () => closing, enableGetStream: true, ...overrides,
  });
  beforeEach(() => {
    lifecycle = new FakeLifecycle();
    streams = new StreamRegistry(new InMemoryEventStore(), { retryMs: 1000, sseUnread: UNLIMITED, maxStreamsPerSession: 4, finishedStreamGraceMs: 1, undeliveredStreamTtlMs: 1 }, () => undefined);
    closing = false;
    endpoint = make();
  });

  describe('#get', () => {
    context('when the session is found', () => {
      it('opens its standalone stream: SSE headers with the session id, a priming event, then what the protocol sends on it', async () => {
        const res = new FakeResponse();
        await endpoint.get(request(), res.asResponse, CONTEXT);
        expect(res.status).to.equal(200);
        expect(res.headers).to.include({ 'content-type': 'text/event-stream', 'mcp-session-id': 's1' });
        lifecycle.sinks.get('s1')!(NOTE);
        await streams.finishAll();
        expect(res.text).to.match(/^id: .+\nretry: 1000\n/);
        expect(res.messages).to.deep.equal([NOTE]);
      });

      it('keeps the session alive while the stream is open', async () => {
        const res = new FakeResponse();
        await endpoint.get(request(), res.asResponse, CONTEXT);
        expect(lifecycle.kept).to.equal(1);
        res.hangUp();
        expect(lifecycle.kept).to.equal(0);
      });

      it('refuses a second stream while the first is connected with 409', async () => {
        await endpoint.get(request(), new FakeResponse().asResponse, CONTEXT);
        const second = new FakeResponse();
        await endpoint.get(request(), second.asResponse, CONTEXT);
        expect(second.status).to.equal(409);
      });
    });

    context('when Last-Event-ID names no stream of this session', () => {
      it('refuses with 400', async () => {
        const other = streams.open('s2');
        const res = new FakeResponse();
        other.attach(res.asResponse);
        await other.prime();
        const lastEventId = /^id: (.+)$/m.exec(res.text)![1];
        const refused = new FakeResponse();
        await endpoint.get(request({ accept: 'text/event-stream', 'last-event-id': lastEventId }), refused.asResponse, CONTEXT);
        expect(refused.status).to.equal(400);
      });
    });

    context('when GET streams are disabled', () => {
      it('refuses with 405, GET left out of Allow', async () => {
        const res = new FakeResponse();
        await make({ enableGetStream: false }).get(request(), res.asResponse, CONTEXT);
        expect(res.status).to.equal(405);
        expect(res.headers.allow).to.equal('POST, DELETE, OPTIONS');
      });
    });

    context('when a stateless-era client asks, without a session', () => {
      it('refuses with 405, pointing to subscriptions/listen', async () => {
        const res = new FakeResponse();
        await endpoint.get(request(), res.asResponse, { ...CONTEXT, sessionId: undefined, version: '2026-07-28' });
        expect(res.status).to.equal(405);
        expect(res.text).to.include('subscriptions/listen');
      });
    });

    context('when the client does not accept text/event-stream', () => {
      it('refuses with 406', async () => {
        const res = new FakeResponse();
        await endpoint.get(request({ accept: 'application/json' }), res.asResponse, CONTEXT);
        expect(res.status).to.equal(406);
      });
    });

    context('when the session lookup refused the request', () => {
      it('opens nothing', async () => {
        await make({ session: async () => undefined }).get(request(), new FakeResponse().asResponse, CONTEXT);
        expect(lifecycle.kept).to.equal(0);
        expect(lifecycle.sinks.size).to.equal(0);
      });
    });

    context('when the handler is closing', () => {
      it('refuses with 503 and Connection: close', async () => {
        closing = true;
        const res = new FakeResponse();
        await endpoint.get(request(), res.asResponse, CONTEXT);
        expect(res.status).to.equal(503);
        expect(res.headers.connection).to.equal('close');
      });
    });
  });

  describe('#delete', () => {
    it('ends the session and answers 200', async () => {
      const res = new FakeResponse();
      await endpoint.delete(request(), res.asResponse, CONTEXT);
      expect(lifecycle.ended).to.deep.equal(['s1']);
      expect(res.status).to.equal(200);
    });

    it('ends nothing when the session lookup refused the request', async () => {
      await make({ session: async () => undefined }).delete(request(), new FakeResponse().asResponse, CONTEXT);
      expect(lifecycle.ended).to.deep.equal([]);
    });
  });
});
