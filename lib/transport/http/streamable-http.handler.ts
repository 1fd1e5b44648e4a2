import { bearerChallenge } from '../../auth/bearer-challenge';
import type { Dispatcher } from '../../protocol/dispatcher';
import type { DispatchOutcome } from '../../protocol/dispatch-outcome';
import { parseJson, PARSE_ERROR } from '../../core/jsonrpc';
import { DEFAULT_SHUTDOWN_TIMEOUT_MS } from '../../core/shutdown';
import { StoreUnavailableError } from '../../core/errors';
import { WarningThrottle } from '../../core/diagnostics';
import { Drain } from '../drain';
import { sessionAnswerStreams, statelessAnswerStreams } from './answer-streams';
import type { HttpInFlight } from './http-calls';
import type { SessionState } from '../../protocol/seams/session-state';
import { readBody, type BodyLimits, type BodyOutcome, type BodyRequest } from './body-reader';
import type { HttpRequestLike, HttpResponseLike } from './http-like.types';
import { InMemoryEventStore } from '../../protocol/seams/event-store';
import { HTTP_DEFAULTS, type HttpOptions } from './http-options';
import { INTERNAL_ERROR, refuseBody, refusals, replyError, replyStatus, writeJson } from './http-replies';
import { PostArrival, type PostHost } from './post-arrival';
import { ProtectedResourceEndpoint } from './protected-resource.endpoint';
import { ServerCardEndpoint } from './server-card.endpoint';
import type { ServerCardFacts } from './server-card';
import { refusalHeaders, statusOf } from './refusal-statuses';
import { accepts, isJsonContent } from './request-guards';
import { GuardAnswer, RequestGate, SESSION_HEADER, type RequestContext } from './request-gate';
import { SessionEndpoint } from './session-endpoint';
import { StreamRegistry } from './stream-registry';

/** A request that needed the shared store while it was away (Redis restarting). */
const STORE_UNAVAILABLE = Object.freeze({ ...INTERNAL_ERROR, message: 'Internal error: the store this server shares with its replicas cannot be reached; retry later' });

/** Answers one request the gate let through; a promise it returns never rejects (failures are answered). */
type Verb = (req: BodyRequest, res: HttpResponseLike, context: RequestContext<Verb>, parsedBody: unknown) => Promise<void> | undefined;

/** What `handle` returns for a request answered without waiting. */
const DONE: Promise<void> = Promise.resolve();

/** The `WWW-Authenticate` of a call refused for want of `scopes`. */
type ScopeChallenge = (scopes: readonly string[]) => string;

/** The OAuth scopes of what a server serves, as they are now (tools come and go). @hidden */
export interface ServedScopes {
  /** Every scope the decorators declare: the metadata's `scopes_supported`. */
  declared(): readonly string[];
  /** The scopes every operation needs: what a 401 challenge names. */
  needed(): readonly string[];
}

const NO_SCOPES: ServedScopes = Object.freeze({ declared: () => [], needed: () => [] });

/**
 * Streamable HTTP (MCP 2025-03-26 and later, session era) as a plain `(req, res)` handler: mount
 * it in `node:http`, Express, Fastify or Nest. One handler serves many sessions. Behind a body
 * parser it takes the body from `req.body` or from its third argument. With the `auth` option it
 * also answers the protected-resource metadata at its well-known paths, and it answers the server
 * card at `<path>/server-card` (`servesMetadataAt`): a host routes those paths to `handle` as well.
 *
 * @example
 * const handler = server.httpHandler({ serverCard: { name: 'io.github.alice/notes' } });
 * app.use(express.json());
 * app.all('/mcp', handler.handle);
 * app.all('/mcp/server-card', handler.handle);
 */
export class StreamableHttpHandler {
  private readonly streams: StreamRegistry;
  private readonly gate: RequestGate<Verb>;
  /** Reports of requests answered 503 because the shared store was away, at most a few a minute. */
  private readonly storeWarnings: WarningThrottle;
  private readonly bodyLimits: BodyLimits;
  /** Requests being answered and `subscriptions/listen` streams, which closing waits for. */
  private readonly drain = new Drain<HttpInFlight>();
  /** What a POST needs of the handler: the drain, and how its answer turns into a stream in each era. */
  private readonly postHost: PostHost;
  private readonly shutdownTimeoutMs: number;
  private readonly metadata?: ProtectedResourceEndpoint;
  private readonly card?: ServerCardEndpoint;
  private readonly scopeChallenge: ScopeChallenge;
  private closing?: Promise<void>;

  /**
   * `scopes`: those the decorators declare now, listed in the protected-resource metadata, and
   * those every operation needs, named in a 401 challenge. `card`: what the server card is built
   * from (none without it). Users get a handler from `server.httpHandler(options)`.
   * @hidden
   */
  constructor(private readonly core: Dispatcher, options: HttpOptions = {}, scopes: ServedScopes = NO_SCOPES, card?: ServerCardFacts) {
    // What an SSE connection may leave unread.
    const sseUnread = {
      maxBytes: options.maxSseBufferBytes ?? HTTP_DEFAULTS.maxSseBufferBytes,
      stallMs: options.sseStallTimeoutMs ?? HTTP_DEFAULTS.sseStallTimeoutMs,
    };
    const { auth } = options;
    this.metadata = auth && new ProtectedResourceEndpoint(auth, () => scopes.declared());
    if (card && options.serverCard !== false) {
      this.card = new ServerCardEndpoint(card, {
        path: options.path ?? '/mcp', options: options.serverCard ?? {}, allowedHosts: options.allowedHosts, bearer: auth !== undefined,
      }, core.diagnostics);
    }
    // Without `auth` there is no metadata to point to, and the scheme is the hook's: the bare
    // RFC 6750 challenge still names the scopes to ask for.
    this.scopeChallenge = auth ? (scopes) => auth.challenges.insufficientScope(scopes) : (scopes) => bearerChallenge({ error: 'insufficient_scope', scopes });
    this.streams = new StreamRegistry(options.eventStore ?? new InMemoryEventStore(), {
      retryMs: options.retryMs ?? HTTP_DEFAULTS.retryMs,
      sseUnread,
      maxStreamsPerSession: options.maxStreamsPerSession ?? HTTP_DEFAULTS.maxStreamsPerSession,
      finishedStreamGraceMs: options.finishedStreamGraceMs ?? HTTP_DEFAULTS.finishedStreamGraceMs,
      undeliveredStreamTtlMs: options.undeliveredStreamTtlMs ?? HTTP_DEFAULTS.undeliveredStreamTtlMs,
    });
    this.bodyLimits = {
      maxBytes: options.maxBodyBytes ?? HTTP_DEFAULTS.maxBodyBytes,
      timeoutMs: options.bodyTimeoutMs ?? HTTP_DEFAULTS.bodyTimeoutMs,
      discardBytes: options.maxDiscardBytes ?? HTTP_DEFAULTS.maxDiscardBytes,
    };
    this.shutdownTimeoutMs = options.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS;
    this.postHost = { drain: this.drain, sessionStreams: sessionAnswerStreams(this.streams), statelessStreams: statelessAnswerStreams(sseUnread) };
    const endpoint = new SessionEndpoint({
      lifecycle: core,
      streams: this.streams,
      session: (req, res, context) => this.session(req, res, context),
      closing: () => this.closing !== undefined,
      enableGetStream: options.enableGetStream !== false,
    });
    const verbs = new Map<string, Verb>([
      ['GET', (req, res, context) => endpoint.get(req, res, context).catch((error: unknown) => this.failed(error, req, res, context.cors))],
      ['POST', (req, res, context, parsedBody) => this.post(req, res, context, parsedBody)],
      ['DELETE', (req, res, context) => endpoint.delete(req, res, context).catch((error: unknown) => this.failed(error, req, res, context.cors))],
    ]);
    this.gate = new RequestGate(verbs, options, core.diagnostics, () => scopes.needed());
    this.storeWarnings = new WarningThrottle(core.diagnostics);
    core.onSessionEnded((id) => this.streams.dropSession(id));
  }

  /**
   * Answers one HTTP request. Never throws: every failure becomes an HTTP status and a JSON-RPC
   * error. `parsedBody` is the body a host framework already parsed (Fastify's `request.body`);
   * without it, the handler uses `req.body` when a parser read the stream, else reads it itself.
   */
  readonly handle = (req: BodyRequest, res: HttpResponseLike, parsedBody?: unknown): Promise<void> => {
    try {
      return this.route(req, res, parsedBody);
    } catch (error) {
      // What an `async` handler would do with a throw outside its own catch.
      return Promise.reject(error);
    }
  };

  private route(req: BodyRequest, res: HttpResponseLike, parsedBody: unknown): Promise<void> {
    // Public, and read before the client has a token: ahead of every check.
    if (this.metadata?.serves(req.url)) return (this.metadata.answer(req, res), DONE);
    if (this.card?.serves(req.url)) return (this.card.answer(req, res), DONE);
    // Once closing, a client should not send its next request on this connection.
    if (this.closing) res.setHeader('connection', 'close');
    let pending: RequestContext<Verb> | GuardAnswer | Promise<RequestContext<Verb> | GuardAnswer>;
    try {
      pending = this.gate.check(req);
    } catch (error) {
      return this.failed(error, req, res, undefined);
    }
    if (pending instanceof Promise) return pending.then((checked) => this.serve(checked, req, res, parsedBody), (error: unknown) => this.failed(error, req, res, undefined));
    return this.serve(pending, req, res, parsedBody);
  }

  /**
   * Runs the verb the gate let through. No `async` here nor in `post`: a request answered without
   * waiting (a refusal, a dispatcher that answers at once) costs no promise, and one that waits
   * costs one per wait, not an async frame per layer.
   */
  private serve(checked: RequestContext<Verb> | GuardAnswer, req: BodyRequest, res: HttpResponseLike, parsedBody: unknown): Promise<void> {
    try {
      if (checked instanceof GuardAnswer) {
        checked.send(res);
        return DONE;
      }
      return checked.verb(req, res, checked, parsedBody) ?? DONE;
    } catch (error) {
      return this.failed(error, req, res, checked instanceof GuardAnswer ? undefined : checked.cors);
    }
  }

  /** What became of a request that threw: 503 when the shared store was away, else 500 (logged). */
  private failed(error: unknown, req: HttpRequestLike, res: HttpResponseLike, cors: Readonly<Record<string, string>> | undefined): Promise<void> {
    if (error instanceof StoreUnavailableError) this.storeUnavailable(res, error, cors);
    else {
      this.core.diagnostics.error(`HTTP ${req.method} failed`, error);
      replyError(res, 500, INTERNAL_ERROR, cors);
    }
    return DONE;
  }

  /** The shared store is away (Redis restarting): 503 with Retry-After and -32603, which a balancer or client may retry. */
  private storeUnavailable(res: HttpResponseLike, error: StoreUnavailableError, cors: Readonly<Record<string, string>> | undefined): void {
    this.storeWarnings.warn('store unavailable', `a request needing the shared store was answered 503: ${error.message}`);
    replyError(res, statusOf('store-unavailable'), STORE_UNAVAILABLE, refusalHeaders('store-unavailable', cors ?? {}));
  }

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
    this.drain.stop();
    for (const call of this.drain.running()) if (!call.res.headersSent) call.res.setHeader('connection', 'close');
    // Streams end last, so that what the calls sent on them is stored and written first.
    await this.drain.settle(this.shutdownTimeoutMs, () => this.streams.finishAll());
  }

  /** A POST: its media types, its body, then the dispatcher; the promise, if any, never rejects (failures are answered). */
  private post(req: BodyRequest, res: HttpResponseLike, context: RequestContext<Verb>, parsedBody: unknown): Promise<void> | undefined {
    const { cors } = context;
    if (!accepts(req, 'application/json') || !accepts(req, 'text/event-stream')) {
      return void replyError(res, 406, refusals.notAcceptable('the client must accept both application/json and text/event-stream'), cors);
    }
    if (!isJsonContent(req)) return void replyError(res, 415, refusals.unsupportedMediaType(), cors);
    const body = readBody(req, parsedBody, this.bodyLimits);
    if (!(body instanceof Promise)) return this.posted(body, req, res, context);
    return body.then((read) => this.posted(read, req, res, context), (error: unknown) => this.failed(error, req, res, cors));
  }

  /** A POST whose body is in: parsed, then dispatched; answered at once when the dispatcher answers at once. */
  private posted(body: BodyOutcome, req: BodyRequest, res: HttpResponseLike, context: RequestContext<Verb>): Promise<void> | undefined {
    try {
      return this.dispatchBody(body, req, res, context);
    } catch (error) {
      return this.failed(error, req, res, context.cors);
    }
  }

  private dispatchBody(body: BodyOutcome, req: BodyRequest, res: HttpResponseLike, context: RequestContext<Verb>): Promise<void> | undefined {
    const { cors } = context;
    if (!body.ok) return void refuseBody(res, body.reason, this.bodyLimits, cors, body.id);
    const parsed = parseJson(body.text);
    if (!parsed.ok) return void replyError(res, 400, PARSE_ERROR, cors);
    // Closing: no new request, but notifications and responses still in (an answer to `ctx.elicit`
    // lets a call finish). The dispatcher opens a request's way back (into the drain) right where it admits it.
    const arrival = new PostArrival(this.postHost, req, res, context.principal, cors, context.sessionId, context.version);
    let outcome: DispatchOutcome | Promise<DispatchOutcome>;
    try {
      outcome = this.core.dispatch(parsed.value, arrival);
    } catch (error) {
      arrival.release();
      throw error;
    }
    // The dispatcher may answer without waiting (nothing to load, a synchronous handler).
    if (!(outcome instanceof Promise)) return this.conclude(outcome, arrival);
    return outcome.then((settled) => this.conclude(settled, arrival), (error: unknown) => {
      arrival.release();
      return this.failed(error, req, res, cors);
    });
  }

  /** The dispatcher is done with a POST: closing stops waiting for it, and its answer goes out. */
  private conclude(outcome: DispatchOutcome, arrival: PostArrival): Promise<void> | undefined {
    arrival.release();
    try {
      answer(arrival.res, outcome, arrival, arrival.cors, this.scopeChallenge);
      return undefined;
    } catch (error) {
      return this.failed(error, arrival.req, arrival.res, arrival.cors);
    }
  }

  /**
   * Whether `url` is the path of a public document `handle` answers besides the endpoint: the
   * protected-resource metadata (with the `auth` option: the path of `auth.resourceMetadataUrl`,
   * and `/.well-known/oauth-protected-resource`) or the server card (`<path>/server-card`, when
   * the server has one).
   */
  servesMetadataAt(url: string | undefined): boolean {
    return (this.metadata?.serves(url) ?? false) || (this.card !== undefined && this.card.available && this.card.serves(url));
  }

  /** The session the request names, or the refusal answered (400 without an id, 404 for an unknown one, 403 for another principal's). */
  private async session(req: HttpRequestLike, res: HttpResponseLike, context: RequestContext<unknown>): Promise<SessionState | undefined> {
    const found = await this.core.findSession(context.sessionId, context.version, context.principal);
    if (!('refusal' in found)) return found;
    replyError(res, statusOf(found.refusal), found.error, context.cors, null);
    return undefined;
  }
}

/**
 * Writes what became of a POST: through the way the dispatcher opened (JSON or SSE), or as plain
 * JSON with the status of its refusal kind; 202 when there is nothing to answer.
 */
function answer(res: HttpResponseLike, outcome: DispatchOutcome, arrival: PostArrival, cors: Record<string, string>, scopeChallenge: ScopeChallenge): void {
  if (outcome.kind === 'nothing') return arrival.call?.abandon();
  const sessionId = outcome.sessionId ?? arrival.sessionId;
  const headers = sessionId === undefined ? cors : { ...cors, [SESSION_HEADER]: sessionId };
  if (outcome.kind === 'accepted') {
    if (outcome.response === undefined) return replyStatus(res, 202, headers);
    return replyJson(res, statusOf(outcome.refusal), cors, JSON.stringify(outcome.response));
  }
  const status = statusOf(outcome.refusal);
  // A call that lacks scopes: 403 with the challenge naming them, in either era (the spec's step-up).
  const challenge = outcome.requiredScopes === undefined ? undefined : { 'www-authenticate': scopeChallenge(outcome.requiredScopes) };
  if (arrival.call) return arrival.call.respond(outcome.response, status, challenge);
  // Refused before a session was found or made: no session header, unless the message is the session's own.
  replyJson(res, status, refusalHeaders(outcome.refusal, outcome.sessionId === undefined ? cors : headers), JSON.stringify(outcome.response));
}

function replyJson(res: HttpResponseLike, status: number, headers: Readonly<Record<string, string>>, body: string): void {
  if (res.headersSent) res.end();
  else writeJson(res, status, headers, body);
}
