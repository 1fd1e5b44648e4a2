import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ProtocolCore } from '../../protocol/core/protocol-core';
import { classify, dispatchByKind, failure, parseJson, PARSE_ERROR, type Classified, type JsonRpcRequest, type JsonRpcResponse } from '../../core/jsonrpc';
import { carriesRequestMeta } from '../../protocol/stateless-era/request-meta';
import { checkMirroredHeaders } from './mirrored-headers';
import { StatelessExchange } from './stateless-exchange';
import { StatelessMethod } from '../../protocol/stateless-era/stateless-era';
import { DEFAULT_SHUTDOWN_TIMEOUT_MS, ServerClosingError, SHUTDOWN_ERRORS } from '../../core/shutdown';
import { RunningCalls } from '../running-calls';
import { BatchCall, PostedCall, type HttpCall } from './http-calls';
import { Method } from '../../core/methods';
import type { SessionState } from '../../protocol/session/session-state';
import { allowsBatches, isSessionEraVersion } from '../../protocol/versions';
import { admitBatch, batchRefusal, classifyBatch, EMPTY_BATCH, type AdmittedBatch } from '../../protocol/session-era/batch';
import { samePrincipal } from '../../protocol/principal';
import { toErrorObject } from '../../core/error-mapper';
import { readBody, type BodyLimits } from './body-reader';
import { InMemoryEventStore } from '../../protocol/events/event-store';
import { HTTP_DEFAULTS, type HttpOptions } from './http-options';
import { INTERNAL_ERROR, refuseClosing, refusedInitializeStatus, refuseBody, refusals, replyError, replyStatus, writeJson } from './http-replies';
import { PostExchange } from './post-exchange';
import { accepts, header, isJsonContent, isStatelessVersion } from './request-guards';
import { GuardAnswer, RequestGate, SESSION_HEADER, VERSION_HEADER, type RequestContext } from './request-gate';
import { SessionEndpoint } from './session-endpoint';
import { StreamRegistry } from './stream-registry';

type Verb = (req: IncomingMessage, res: ServerResponse, context: RequestContext<Verb>, parsedBody: unknown) => Promise<void>;

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
export class StreamableHttpHandler {
  private readonly streams: StreamRegistry;
  private readonly gate: RequestGate<Verb>;
  private readonly bodyLimits: BodyLimits;
  /** Requests being answered, which closing waits for; `subscriptions/listen` streams apart (they never finish). */
  private readonly calls = new RunningCalls<HttpCall>();
  private readonly listens = new RunningCalls<StatelessExchange>();
  private readonly shutdownTimeoutMs: number;
  private closing?: Promise<void>;

  constructor(private readonly core: ProtocolCore, options: HttpOptions = {}) {
    this.streams = new StreamRegistry(options.eventStore ?? new InMemoryEventStore(), {
      retryMs: options.retryMs ?? HTTP_DEFAULTS.retryMs,
      maxStreamsPerSession: options.maxStreamsPerSession ?? HTTP_DEFAULTS.maxStreamsPerSession,
      finishedStreamGraceMs: options.finishedStreamGraceMs ?? HTTP_DEFAULTS.finishedStreamGraceMs,
      undeliveredStreamTtlMs: options.undeliveredStreamTtlMs ?? HTTP_DEFAULTS.undeliveredStreamTtlMs,
    });
    this.bodyLimits = { maxBytes: options.maxBodyBytes ?? HTTP_DEFAULTS.maxBodyBytes, timeoutMs: options.bodyTimeoutMs ?? HTTP_DEFAULTS.bodyTimeoutMs };
    this.shutdownTimeoutMs = options.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS;
    const endpoint = new SessionEndpoint({
      lifecycle: core,
      streams: this.streams,
      session: (req, res, { principal, cors }) => this.session(req, res, principal, cors, null),
      closing: () => this.closing !== undefined,
      enableGetStream: options.enableGetStream !== false,
    });
    const verbs = new Map<string, Verb>([
      ['GET', (req, res, context) => endpoint.get(req, res, context)],
      ['POST', (req, res, context, parsedBody) => this.post(req, res, context.principal, context.cors, parsedBody)],
      ['DELETE', (req, res, context) => endpoint.delete(req, res, context)],
    ]);
    this.gate = new RequestGate(verbs, options, core.server.diagnostics);
    core.onSessionEnded((id) => this.streams.dropSession(id));
  }

  /**
   * Answers one HTTP request. Never throws: every failure becomes an HTTP status and a JSON-RPC
   * error. `parsedBody` is the body a host framework already parsed (Fastify's `request.body`);
   * without it, the handler uses `req.body` when a parser read the stream, else reads it itself.
   */
  readonly handle = async (req: IncomingMessage, res: ServerResponse, parsedBody?: unknown): Promise<void> => {
    // Once closing, a client should not send its next request on this connection.
    if (this.closing) res.setHeader('connection', 'close');
    let context: RequestContext<Verb> | undefined;
    try {
      const pending = this.gate.check(req);
      const checked = pending instanceof Promise ? await pending : pending;
      if (checked instanceof GuardAnswer) return checked.send(res);
      context = checked;
      await context.verb(req, res, context, parsedBody);
    } catch (error) {
      this.core.server.diagnostics.error(`HTTP ${req.method} failed`, error);
      replyError(res, 500, INTERNAL_ERROR, context?.cors);
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
    await this.streams.finishAll();
    await this.listens.settled(this.shutdownTimeoutMs);
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
    if (Array.isArray(parsed.value)) return this.batch(req, res, parsed.value, principal, cors);
    const incoming = classify(parsed.value, this.core.maxJsonDepth);
    if (incoming.kind === 'invalid') return replyError(res, 400, incoming.error, cors, incoming.id);
    // Closing: no new request, but notifications and responses still in (an answer to `ctx.elicit`
    // lets a call finish). Each path checks right where it registers the call, with no await between.
    if (header(req, SESSION_HEADER) === undefined && isStatelessTraffic(incoming, header(req, VERSION_HEADER))) {
      return this.stateless(req, res, incoming, principal, cors);
    }
    if (incoming.kind === 'request' && incoming.message.method === Method.Initialize) return this.initialize(req, res, incoming.message, principal, cors);

    const state = await this.session(req, res, principal, cors, incoming.kind === 'request' ? incoming.message.id : null);
    if (!state) return;
    const headers = { ...cors, [SESSION_HEADER]: state.id };
    await dispatchByKind<Promise<void>>(incoming, {
      invalid: async ({ id, error }) => replyError(res, 400, error, cors, id),
      notification: async ({ message }) => {
        await this.core.notification(state, message);
        replyStatus(res, 202, headers);
      },
      response: async ({ message }) => {
        this.core.response(state, message);
        replyStatus(res, 202, headers);
      },
      request: async ({ message }) => {
        if (this.closing) return refuseClosing(res, cors, message.id);
        const exchange = new PostExchange(res, state.id, { open: (id) => this.streams.open(id), responseHeaders: headers });
        const call = new PostedCall(res, exchange, message.id);
        this.calls.add(call);
        try {
          const response = await this.core.request(state, message, exchange, call.cancellation)
            .catch((error: unknown) => failure(message.id, toErrorObject(error, message.method, this.core.server.diagnostics)));
          if (response) exchange.respond(response);
          else exchange.abandon();
        } finally {
          this.calls.delete(call);
        }
      },
    });
  }

  /**
   * A JSON-RPC batch, which only a 2025-03-26 session takes: 202 when it holds no request, else
   * the responses as one JSON array (or on an SSE stream, when the requests send messages first).
   */
  private async batch(req: IncomingMessage, res: ServerResponse, values: unknown[], principal: unknown, cors: Record<string, string>): Promise<void> {
    if (header(req, SESSION_HEADER) === undefined) return replyError(res, 400, batchRefusal(undefined), cors);
    const state = await this.session(req, res, principal, cors, null);
    if (!state) return;
    if (!allowsBatches(state.protocolVersion)) return replyError(res, 400, batchRefusal(state.protocolVersion), cors);
    if (values.length === 0) return replyError(res, 400, EMPTY_BATCH, cors);
    const items = classifyBatch(values, this.core.maxJsonDepth);
    if (this.closing && items.some((item) => item.kind === 'request')) return refuseClosing(res, cors, null);
    const headers = { ...cors, [SESSION_HEADER]: state.id };
    const exchange = new PostExchange(res, state.id, { open: (id) => this.streams.open(id), responseHeaders: headers });
    const call = new BatchCall(res, exchange);
    this.calls.add(call);
    let batch: AdmittedBatch;
    let responses: JsonRpcResponse[];
    try {
      batch = await admitBatch(this.core, state, items, exchange);
      call.admitted(batch);
      responses = await batch.answers;
    } finally {
      this.calls.delete(call);
    }
    if (batch.requests > 0) return responses.length > 0 ? exchange.respondBatch(responses) : exchange.abandon();
    // Only notifications and responses: accepted, unless some element was not a valid message.
    if (responses.length === 0) return replyStatus(res, 202, headers);
    writeJson(res, 400, headers, JSON.stringify(responses));
  }

  /** Protocol 2026-07-28: every request stands alone, checked and answered by the stateless era. */
  private async stateless(req: IncomingMessage, res: ServerResponse, incoming: Classified, principal: unknown, cors: Record<string, string>): Promise<void> {
    if (incoming.kind === 'notification') return replyStatus(res, 202, cors);
    if (incoming.kind !== 'request') return replyError(res, 400, refusals.invalidRequest('clients send no responses in this protocol version'), cors);
    if (this.closing) return refuseClosing(res, cors, incoming.message.id);
    const exchange = new StatelessExchange(res, cors, incoming.message.id);
    const calls = incoming.message.method === StatelessMethod.Listen ? this.listens : this.calls;
    calls.add(exchange);
    const registry = this.core.server.registry;
    const outcome = await this.core.stateless.request(incoming.message, {
      principal,
      cancellation: exchange.cancellation,
      exchange,
      checkHeaders: (message, meta) => checkMirroredHeaders(req, message, meta, (name) => {
        // A tool the caller may not see is treated as unknown here too: its schema says nothing.
        const tool = registry.tool(name);
        return tool && this.core.server.canSee({ kind: 'tool', name }, principal) ? tool.descriptor.inputSchema : undefined;
      }),
    }).finally(() => calls.delete(exchange));
    exchange.finish(outcome.status, outcome.response);
  }

  private async initialize(req: IncomingMessage, res: ServerResponse, message: JsonRpcRequest, principal: unknown, cors: Record<string, string>): Promise<void> {
    if (header(req, SESSION_HEADER) !== undefined) {
      return replyError(res, 400, refusals.invalidRequest('initialize starts a new session and must not carry Mcp-Session-Id'), cors, message.id);
    }
    if (this.closing) return refuseClosing(res, cors, message.id);
    let initialized: Awaited<ReturnType<ProtocolCore['initialize']>>;
    try {
      initialized = await this.core.initialize(message, principal);
    } catch (error) {
      return replyError(res, 500, toErrorObject(error, message.method, this.core.server.diagnostics), cors, message.id);
    }
    const { state, response } = initialized;
    const headers = state ? { ...cors, [SESSION_HEADER]: state.id } : cors;
    const body = JSON.stringify(response);
    res.writeHead(state ? 200 : refusedInitializeStatus(response), { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  }

  /** The session the request names: 400 without an id, 404 for an unknown one, 403 for another principal's. */
  private async session(req: IncomingMessage, res: ServerResponse, principal: unknown, cors: Record<string, string>, id: JsonRpcRequest['id'] | null): Promise<SessionState | undefined> {
    const sessionId = header(req, SESSION_HEADER);
    if (!sessionId) return void replyError(res, 400, refusals.badRequest('Mcp-Session-Id header is required'), cors, id);
    const version = header(req, VERSION_HEADER);
    if (version !== undefined && !isSessionEraVersion(version)) {
      return void replyError(res, 400, refusals.badRequest(`unsupported MCP-Protocol-Version: ${version}`), cors, id);
    }
    const state = await this.core.sessions.load(sessionId);
    if (!state) return void replyError(res, 404, refusals.sessionNotFound(), cors, id);
    if (!samePrincipal(state.principal, principal)) {
      return void replyError(res, 403, refusals.forbidden('this session belongs to another principal'), cors, id);
    }
    // No touch here: the protocol core restarts the idle clock when each request ends, and keeps
    // a session with a request running from expiring; one touch per request is enough.
    return state;
  }
}

/**
 * Era detection for HTTP: without a session id, a message that carries `_meta` with a protocol
 * version, or names a version header the session era does not know, speaks the stateless era.
 */
function isStatelessTraffic(incoming: Classified, versionHeader: string | undefined): boolean {
  if (incoming.kind === 'request' || incoming.kind === 'notification') {
    if (carriesRequestMeta(incoming.message.params)) return true;
  }
  return isStatelessVersion(versionHeader);
}
