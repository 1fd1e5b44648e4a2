import type { HttpRequestLike, HttpResponseLike } from './http-like.types';
import type { Dispatcher } from '../../protocol/dispatcher';
import type { SessionState } from '../../protocol/seams/session-state';
import { refuseClosing, refusals, replyError, replyStatus } from './http-replies';
import type { RequestContext } from './request-gate';
import { SESSION_HEADER } from './request-gate';
import { accepts, header } from './request-guards';
import { speaksStatelessVersion } from '../../protocol/era';
import { SSE_HEADERS } from './sse-framing';
import type { SseStream } from './sse-stream';
import type { StreamRegistry } from './stream-registry';

/** What the session endpoint needs from the handler that mounts it. */
export interface SessionEndpointDeps {
  readonly lifecycle: Pick<Dispatcher, 'keepAlive' | 'holdStandalone' | 'endSession'>;
  readonly streams: StreamRegistry;
  /** The session the request names, its principal checked; `undefined` once the request is refused. */
  readonly session: (req: HttpRequestLike, res: HttpResponseLike, context: RequestContext<unknown>) => Promise<SessionState | undefined>;
  /** True once the handler is closing. */
  readonly closing: () => boolean;
  /** Whether GET opens a standalone stream (`HttpOptions.enableGetStream`). */
  readonly enableGetStream: boolean;
}

/** GET and DELETE on the endpoint: a session's standalone stream, resuming a stream, ending a session. */
export class SessionEndpoint {
  constructor(private readonly deps: SessionEndpointDeps) {}

  /** Opens the session's standalone stream, or resumes a stream from `Last-Event-ID`. */
  async get(req: HttpRequestLike, res: HttpResponseLike, context: RequestContext<unknown>): Promise<void> {
    const { cors } = context;
    if (!this.deps.enableGetStream) return replyError(res, 405, refusals.methodNotAllowed('GET (no standalone stream on this server)'), { ...cors, allow: 'POST, DELETE, OPTIONS' });
    if (context.sessionId === undefined && speaksStatelessVersion(context.version)) {
      return replyError(res, 405, refusals.methodNotAllowed('GET (protocol 2026-07-28 has no standalone stream; use subscriptions/listen)'), { ...cors, allow: 'POST, OPTIONS' });
    }
    if (!accepts(req, 'text/event-stream')) return replyError(res, 406, refusals.notAcceptable('the client must accept text/event-stream'), cors);
    const state = await this.deps.session(req, res, context);
    if (!state) return;
    // Checked once the session is loaded: from here to the stream being registered nothing waits.
    if (this.deps.closing()) return refuseClosing(res, cors, null);
    // An open stream is activity: a client that only listens keeps its session and subscriptions.
    const release = this.deps.lifecycle.keepAlive(state.id);
    if (res.destroyed) release();
    else res.once('close', release);
    const headers = { ...cors, ...SSE_HEADERS, [SESSION_HEADER]: state.id };
    const lastEventId = header(req, 'last-event-id');
    if (lastEventId !== undefined) {
      const resumed = await this.deps.streams.resume(state.id, lastEventId, res, headers, (stream) => this.hold(state.id, stream));
      if (!resumed) replyError(res, 400, refusals.badRequest('unknown Last-Event-ID for this session'), cors);
      return;
    }
    const stream = this.deps.streams.standaloneOf(state.id);
    if (!stream) return replyError(res, 409, refusals.conflict('this session already has a standalone stream open'), cors);
    res.writeHead(200, headers);
    res.flushHeaders();
    stream.attach(res);
    // Primed once this node holds the stream: a client that has seen the priming event hears
    // every notification sent after it, from whichever node.
    void this.hold(state.id, stream).then(() => stream.prime());
  }

  /** This node carries the session's standalone stream from now on, whichever node did until now. */
  private hold(sessionId: string, stream: SseStream): Promise<void> {
    return this.deps.lifecycle.holdStandalone(sessionId, {
      streamId: stream.id,
      send: (message) => void stream.send(message),
      released: (heldStreamId) => this.deps.streams.letGo(stream, heldStreamId),
    });
  }

  /** Ends the session: 200, then 404 for anything that names it. */
  async delete(req: HttpRequestLike, res: HttpResponseLike, context: RequestContext<unknown>): Promise<void> {
    const state = await this.deps.session(req, res, context);
    if (!state) return;
    await this.deps.lifecycle.endSession(state.id);
    replyStatus(res, 200, context.cors);
  }
}
