import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Dispatcher } from '../../protocol/dispatcher';
import type { DispatchOutcome } from '../../protocol/dispatch-outcome';
import { speaksStatelessVersion } from '../../protocol/era';
import { parseJson, PARSE_ERROR, type JsonRpcRequest } from '../../core/jsonrpc';
import { DEFAULT_SHUTDOWN_TIMEOUT_MS, ServerClosingError, SHUTDOWN_ERRORS } from '../../core/shutdown';
import { RunningCalls } from '../running-calls';
import type { HttpCall, HttpWay } from './http-calls';
import type { SessionState } from '../../protocol/session/session-state';
import { isPlainData } from '../../protocol/principal';
import { readBody, type BodyLimits } from './body-reader';
import { InMemoryEventStore, type EventStore } from './event-store';
import { HTTP_DEFAULTS, type AuthDecision, type HttpOptions } from './http-options';
import { refuseBody, refusals, replyError, replyStatus, writeJson } from './http-replies';
import { PostArrival, type PostHost } from './post-arrival';
import { refusalHeaders, statusOf } from './refusal-statuses';
import { accepts, header, hostAllowed, isJsonContent, originAllowed, repeatedHeader } from './request-guards';
import { SSE_HEADERS, SseStream } from './sse-stream';

const SESSION_HEADER = 'mcp-session-id';
const VERSION_HEADER = 'mcp-protocol-version';
const ALLOWED_METHODS = 'GET, POST, DELETE, OPTIONS';
const FINISHED_STREAM_GRACE_MS = 30_000;
const UNDELIVERED_STREAM_TTL_MS = 5 * 60_000;
const MAX_STREAMS_PER_SESSION = 64;
const BASE_ALLOW_HEADERS = ['content-type', 'accept', 'authorization', SESSION_HEADER, VERSION_HEADER, 'last-event-id'];

type Verb = (req: IncomingMessage, res: ServerResponse, principal: unknown, headers: Record<string, string>, parsedBody: unknown) => Promise<void>;

/**
 * Streamable HTTP (MCP 2025-03-26 and later, session era) as a plain `(req, res)` handler: mount
 * it in `node:http`, Express, Fastify or Nest. One handler serves many sessions. Behind a body
 * parser it takes the body from `req.body` or from its third argument.
 *
 * @example
 * const handler = server.httpHandler();
 * app.use(express.json());
 * app.all('/mcp', handler.handle);
 */
export class StreamableHttpHandler implements PostHost {
  private readonly events: EventStore;
  private readonly live = new Map<string, SseStream>();
  private readonly standalone = new Map<string, SseStream>();
  private readonly streamIds = new Map<string, Set<string>>();
  private readonly verbs: ReadonlyMap<string, Verb>;
  private readonly bodyLimits: BodyLimits;
  private readonly retryMs: number;
  private streamCounter = 0;
  /** Requests being answered, which closing waits for; `subscriptions/listen` streams apart (they never finish). */
  private readonly calls = new RunningCalls<HttpCall>();
  private readonly listens = new RunningCalls<HttpWay>();
  private readonly shutdownTimeoutMs: number;
  private closing?: Promise<void>;

  constructor(private readonly core: Dispatcher, private readonly options: HttpOptions = {}) {
    this.events = options.eventStore ?? new InMemoryEventStore();
    this.bodyLimits = { maxBytes: options.maxBodyBytes ?? HTTP_DEFAULTS.maxBodyBytes, timeoutMs: options.bodyTimeoutMs ?? HTTP_DEFAULTS.bodyTimeoutMs };
    this.retryMs = options.retryMs ?? 1000;
    this.shutdownTimeoutMs = options.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS;
    this.verbs = new Map<string, Verb>([
      ['POST', (req, res, principal, headers, parsedBody) => this.post(req, res, principal, headers, parsedBody)],
      ['GET', (req, res, principal, headers) => this.get(req, res, principal, headers)],
      ['DELETE', (req, res, principal, headers) => this.delete(req, res, principal, headers)],
    ]);
    core.onSessionEnded((id) => this.dropSession(id));
  }

  /**
   * Answers one HTTP request. Never throws: every failure becomes an HTTP status and a JSON-RPC
   * error. `parsedBody` is the body a host framework already parsed (Fastify's `request.body`);
   * without it, the handler uses `req.body` when a parser read the stream, else reads it itself.
   */
  readonly handle = async (req: IncomingMessage, res: ServerResponse, parsedBody?: unknown): Promise<void> => {
    const cors = this.corsHeaders(req);
    // Once closing, a client should not send its next request on this connection.
    if (this.closing) res.setHeader('connection', 'close');
    try {
      const repeated = repeatedHeader(req);
      if (repeated) return replyError(res, 400, refusals.badRequest(`the ${repeated} header was sent more than once`), cors);
      if (!hostAllowed(req, this.options.allowedHosts)) return replyError(res, 403, refusals.forbidden('Host not allowed'), cors);
      if (!originAllowed(req, this.options.allowedOrigins)) return replyError(res, 403, refusals.forbidden('Origin not allowed'), cors);
      if (req.method === 'OPTIONS') return replyStatus(res, 204, { ...cors, 'access-control-allow-methods': ALLOWED_METHODS, 'access-control-max-age': '86400' });
      const verb = this.verbs.get(req.method ?? '');
      if (!verb) return replyError(res, 405, refusals.methodNotAllowed(req.method ?? ''), { ...cors, allow: ALLOWED_METHODS });
      const pending = this.authenticate(req);
      const decision = pending instanceof Promise ? await pending : pending;
      if (decision.allow && decision.principal !== undefined && !isPlainData(decision.principal)) {
        this.core.diagnostics.error('the authenticate hook returned a principal that is not plain data (JSON values only); refusing the request');
        return replyError(res, 500, { code: -32603, message: 'Internal error' }, cors);
      }
      if (!decision.allow) {
        const challenge: Record<string, string> = decision.status === 401 ? { 'www-authenticate': decision.wwwAuthenticate } : {};
        const refusal = decision.status === 401 ? refusals.unauthorized(decision.message ?? 'authentication required') : refusals.forbidden(decision.message ?? 'access denied');
        return replyError(res, decision.status, refusal, { ...cors, ...challenge });
      }
      await verb(req, res, decision.principal, cors, parsedBody);
    } catch (error) {
      this.core.diagnostics.error(`HTTP ${req.method} failed`, error);
      replyError(res, 500, { code: -32603, message: 'Internal error' }, cors);
    }
  };

  /**
   * Shuts the handler down gracefully: new requests get 503 (a JSON-RPC error, `Connection:
   * close`), requests being answered may finish within `shutdownTimeoutMs`, then those left are
   * cancelled (their `ctx.signal` aborts) and answered with an error carrying their id; then the
   * SSE streams end, each once its last events are in the event store (so a client can resume them
   * with `Last-Event-ID` on a server that shares the store), and listen streams get their closing
   * response. Sessions are left in the session store, for another replica to carry on. Call it
   * from the host's shutdown; calling it again returns the same promise.
   *
   * @example
   * process.once('SIGTERM', async () => {
   *   httpServer.close();      // the host's own server: no new connections
   *   await handler.close();   // MCP calls in flight finish, streams end
   *   httpServer.closeAllConnections();
   * });
   */
  close(): Promise<void> {
    return (this.closing ??= this.shutDown());
  }

  private async shutDown(): Promise<void> {
    for (const call of this.calls) if (!call.res.headersSent) call.res.setHeader('connection', 'close');
    await this.calls.settled(this.shutdownTimeoutMs);
    const reason = new ServerClosingError();
    for (const call of this.calls) call.giveUp(reason, SHUTDOWN_ERRORS.cancelled);
    // Streams end last, so that what the calls sent on them is stored and written first.
    for (const listen of this.listens) listen.cancellation.cancel(reason);
    await Promise.all([...this.standalone.values(), ...this.live.values()].map((stream) => stream.finish()));
    await this.listens.settled(this.shutdownTimeoutMs);
  }

  /** A new SSE stream of a session (what a POST exchange opens when it switches to SSE). */
  open(sessionId: string): SseStream {
    this.streamCounter += 1;
    const stream = new SseStream(`${sessionId}-${this.streamCounter}`, this.events, this.retryMs);
    this.live.set(stream.id, stream);
    let ids = this.streamIds.get(sessionId);
    if (!ids) this.streamIds.set(sessionId, (ids = new Set()));
    ids.add(stream.id);
    // A stream whose last event went out on a live connection is kept replayable for a short
    // grace (the connection may have died unnoticed), one that ended while the client was away
    // for longer (it should come back for its result), then each is forgotten.
    stream.onFinished = (delivered) => {
      this.live.delete(stream.id);
      setTimeout(() => this.forgetStream(ids!, stream.id), delivered ? FINISHED_STREAM_GRACE_MS : UNDELIVERED_STREAM_TTL_MS).unref();
    };
    // A session keeps at most this many streams replayable; the oldest go first.
    for (const oldest of ids) {
      if (ids.size <= MAX_STREAMS_PER_SESSION) break;
      if (!this.live.has(oldest)) this.forgetStream(ids, oldest);
    }
    return stream;
  }

  private forgetStream(ids: Set<string>, streamId: string): void {
    ids.delete(streamId);
    void this.events.dropStream(streamId);
  }

  private async post(req: IncomingMessage, res: ServerResponse, principal: unknown, cors: Record<string, string>, parsedBody: unknown): Promise<void> {
    if (!accepts(req, 'application/json') || !accepts(req, 'text/event-stream')) {
      return replyError(res, 406, refusals.notAcceptable('the client must accept both application/json and text/event-stream'), cors);
    }
    if (!isJsonContent(req)) return replyError(res, 415, refusals.unsupportedMediaType(), cors);
    const body = await readBody(req, parsedBody, this.bodyLimits);
    if (!body.ok) return refuseBody(res, body.reason, this.bodyLimits, cors, body.id);
    const parsed = parseJson(body.text);
    if (!parsed.ok) return replyError(res, 400, PARSE_ERROR, cors);
    // Closing: no new request, but notifications and responses still in (an answer to `ctx.elicit`
    // lets a call finish). The dispatcher opens a request's way (`track`) right where it admits it.
    const arrival = new PostArrival(this, req, res, principal, cors, header(req, SESSION_HEADER), header(req, VERSION_HEADER), SESSION_HEADER);
    let outcome: DispatchOutcome;
    try {
      outcome = await this.core.dispatch(parsed.value, arrival);
    } finally {
      arrival.release();
    }
    answer(res, outcome, arrival, cors);
  }

  get accepting(): boolean {
    return this.closing === undefined;
  }

  track(call: HttpWay, listen: boolean): void {
    (listen ? this.listens : this.calls).add(call);
  }

  untrack(call: HttpWay, listen: boolean): void {
    (listen ? this.listens : this.calls).delete(call);
  }

  private async get(req: IncomingMessage, res: ServerResponse, principal: unknown, cors: Record<string, string>): Promise<void> {
    if (this.options.enableGetStream === false) return replyError(res, 405, refusals.methodNotAllowed('GET (no standalone stream on this server)'), { ...cors, allow: 'POST, DELETE, OPTIONS' });
    if (header(req, SESSION_HEADER) === undefined && speaksStatelessVersion(header(req, VERSION_HEADER))) {
      return replyError(res, 405, refusals.methodNotAllowed('GET (protocol 2026-07-28 has no standalone stream; use subscriptions/listen)'), { ...cors, allow: 'POST, OPTIONS' });
    }
    if (!accepts(req, 'text/event-stream')) return replyError(res, 406, refusals.notAcceptable('the client must accept text/event-stream'), cors);
    const state = await this.session(req, res, principal, cors, null);
    if (!state) return;
    // Checked once the session is loaded: from here to the stream being registered nothing waits.
    if (this.closing) return refuseClosing(res, cors, null);
    // An open stream is activity: a client that only listens keeps its session and subscriptions.
    const release = this.core.keepAlive(state.id);
    if (res.destroyed) release();
    else res.once('close', release);
    const headers = { ...cors, ...SSE_HEADERS, [SESSION_HEADER]: state.id };
    const lastEventId = header(req, 'last-event-id');
    if (lastEventId !== undefined) return this.resume(res, state, lastEventId, headers, cors);
    const current = this.standalone.get(state.id);
    if (current?.connected) return replyError(res, 409, refusals.conflict('this session already has a standalone stream open'), cors);
    const stream = current ?? this.open(state.id);
    this.live.delete(stream.id);
    this.standalone.set(state.id, stream);
    res.writeHead(200, headers);
    res.flushHeaders();
    stream.attach(res);
    void stream.prime();
    this.core.attachStandalone(state.id, (message) => void stream.send(message));
  }

  /** Replays what the client missed on a stream, then carries the stream on if it is still going. */
  private async resume(res: ServerResponse, state: SessionState, lastEventId: string, headers: Record<string, string>, cors: Record<string, string>): Promise<void> {
    const streamId = await this.events.streamOf(lastEventId);
    if (!streamId || !streamId.startsWith(`${state.id}-`)) return replyError(res, 400, refusals.badRequest('unknown Last-Event-ID for this session'), cors);
    res.writeHead(200, headers);
    res.flushHeaders();
    const stream = this.live.get(streamId) ?? (this.standalone.get(state.id)?.id === streamId ? this.standalone.get(state.id) : undefined);
    if (stream && !stream.finished) return stream.resume(res, lastEventId);
    for (const event of await this.events.after(lastEventId)) res.write(`id: ${event.id}\nevent: message\ndata: ${JSON.stringify(event.message)}\n\n`);
    res.end();
  }

  private async delete(req: IncomingMessage, res: ServerResponse, principal: unknown, cors: Record<string, string>): Promise<void> {
    const state = await this.session(req, res, principal, cors, null);
    if (!state) return;
    await this.core.endSession(state.id);
    replyStatus(res, 200, cors);
  }

  /** The session the request names, or the refusal answered (400 without an id, 404 for an unknown one, 403 for another principal's). */
  private async session(req: IncomingMessage, res: ServerResponse, principal: unknown, cors: Record<string, string>, id: JsonRpcRequest['id'] | null): Promise<SessionState | undefined> {
    const found = await this.core.findSession(header(req, SESSION_HEADER), header(req, VERSION_HEADER), principal);
    if (!('refusal' in found)) return found;
    replyError(res, statusOf(found.refusal), found.error, cors, id);
    return undefined;
  }

  private authenticate(req: IncomingMessage): AuthDecision | Promise<AuthDecision> {
    if (!this.options.authenticate) return ALLOW_ANYONE;
    return this.options.authenticate({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
  }

  private corsHeaders(req: IncomingMessage): Record<string, string> {
    const origin = req.headers.origin;
    if (origin === undefined || !originAllowed(req, this.options.allowedOrigins)) return {};
    return {
      'access-control-allow-origin': origin,
      'access-control-expose-headers': `${SESSION_HEADER}, ${VERSION_HEADER}, www-authenticate`,
      'access-control-allow-headers': [...BASE_ALLOW_HEADERS, ...(this.options.corsAllowHeaders ?? [])].join(', '),
      vary: 'origin',
    };
  }

  private dropSession(sessionId: string): void {
    for (const streamId of this.streamIds.get(sessionId) ?? []) {
      void this.live.get(streamId)?.finish();
      this.live.delete(streamId);
      void this.events.dropStream(streamId);
    }
    this.streamIds.delete(sessionId);
    void this.standalone.get(sessionId)?.finish();
    this.standalone.delete(sessionId);
  }
}

const ALLOW_ANYONE: AuthDecision = Object.freeze({ allow: true });

/** A request that came once closing had started: 503, and the client should not reuse the connection. */
function refuseClosing(res: ServerResponse, cors: Record<string, string>, id: JsonRpcRequest['id'] | null): void {
  replyError(res, 503, SHUTDOWN_ERRORS.refused, refusalHeaders('server-closing', cors), id);
}

/**
 * Writes what became of a POST: through the way the dispatcher opened (JSON or SSE), or as plain
 * JSON with the status of its refusal kind; 202 when there is nothing to answer.
 */
function answer(res: ServerResponse, outcome: DispatchOutcome, arrival: PostArrival, cors: Record<string, string>): void {
  if (outcome.kind === 'nothing') return arrival.way?.abandon();
  const sessionId = outcome.sessionId ?? arrival.sessionId;
  const headers = sessionId === undefined ? cors : { ...cors, [SESSION_HEADER]: sessionId };
  if (outcome.kind === 'accepted') {
    if (outcome.response === undefined) return replyStatus(res, 202, headers);
    return replyJson(res, statusOf(outcome.refusal), cors, JSON.stringify(outcome.response));
  }
  const status = statusOf(outcome.refusal);
  if (arrival.way) return arrival.way.respond(outcome.response, status);
  // Refused before a session was found or made: no session header, unless the message is the session's own.
  replyJson(res, status, refusalHeaders(outcome.refusal, outcome.sessionId === undefined ? cors : headers), JSON.stringify(outcome.response));
}

function replyJson(res: ServerResponse, status: number, headers: Readonly<Record<string, string>>, body: string): void {
  if (res.headersSent) res.end();
  else writeJson(res, status, headers, body);
}
