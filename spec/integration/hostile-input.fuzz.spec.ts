import { expect } from 'chai';
import express, { type NextFunction, type Request, type Response } from 'express';
import fc from 'fast-check';
import { fastify } from 'fastify';
import { request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { StdioTransport, type Diagnostics, type PhantomServer } from '../../lib';
import { connectHttp } from './support/sdk-clients';
import { everythingServer } from './support/everything.fixture';
import { body, hostileString } from './support/hostile-input.arbitraries';
import { MCP_ACCEPT, openSession } from './support/raw-http';

/**
 * Property-based: whatever a client sends, over HTTP or stdio, every request gets exactly one
 * answer carrying its id (or the documented HTTP status), the process stays up, memory stays
 * bounded, nothing is reported as a failure of the server, and the next good request is served.
 * Bounded in count; `FUZZ_SEED=n` replays a run (fast-check prints the seed and the shrunk
 * counterexample when a property fails).
 */

const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
const RUNS = Number(process.env.FUZZ_RUNS ?? 300);

/** Every status the README documents for HTTP; a 500 means the server failed on client input. */
const DOCUMENTED_STATUSES = new Set([200, 202, 204, 400, 401, 403, 404, 405, 406, 408, 409, 413, 415, 431, 503]);

/**
 * Diagnostics that keep what the framework reports as its own failure: whatever a client sends,
 * nothing in the server may fail on it (warnings, which a client can cause, are allowed).
 */
function failuresKept(): { diagnostics: Diagnostics; failures: string[] } {
  const failures: string[] = [];
  const diagnostics: Diagnostics = {
    error: (message, error) => { failures.push(`${message}: ${error instanceof Error ? error.stack : String(error)}`); },
    warn: () => {},
  };
  return { diagnostics, failures };
}

/** Long enough that only a hang misses it; streams that legitimately stay open are cut there. */
const ANSWER_DEADLINE_MS = 5000;
const OPEN_STREAM_READ_MS = 300;

type Id = string | number;

/**
 * Gives each request that says `"id":"fresh"` an id of its own, so answers can be matched; `ids`
 * are the fresh ones, `carried` every string or number id the message(s) carry at the top level.
 */
function numberIds(text: string, next: () => number): { text: string; ids: Id[]; carried: Id[] } {
  const ids: Id[] = [];
  const out = text.replace(/"id":"fresh"/g, () => {
    const id = next();
    ids.push(id);
    return `"id":${id}`;
  });
  let carried: Id[] = ids;
  try {
    const parsed: unknown = JSON.parse(out);
    carried = (Array.isArray(parsed) ? parsed : [parsed])
      .map((m) => (m && typeof m === 'object' ? (m as { id?: unknown }).id : undefined))
      .filter((id): id is Id => typeof id === 'string' || typeof id === 'number');
  } catch { /* too deep or malformed for this parser too: the fresh ids are what it carries */ }
  return { text: out, ids, carried };
}

/** The request ids a line's `notifications/cancelled` messages name (a batch's included). */
function cancelledIds(text: string): Id[] {
  try {
    const parsed: unknown = JSON.parse(text);
    return (Array.isArray(parsed) ? parsed : [parsed])
      .filter((m): m is { method: string; params: { requestId: Id } } => m?.method === 'notifications/cancelled'
        && (typeof m.params?.requestId === 'string' || typeof m.params?.requestId === 'number'))
      .map((m) => m.params.requestId);
  } catch {
    return [];
  }
}

/** Runs a property and fails with the seed and a shortened counterexample (they can be megabytes). */
async function holds<T>(property: fc.IAsyncPropertyWithHooks<T>, params: fc.Parameters<T>): Promise<void> {
  const details = await fc.check(property, params);
  if (!details.failed) return;
  const example = JSON.stringify(details.counterexample) ?? '';
  const error = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
  throw new Error(`property failed (replay: FUZZ_SEED=${details.seed}, path ${details.counterexamplePath}):\n`
    + `${error.slice(0, 3000)}\ncounterexample (first 2000 characters): ${example.slice(0, 2000)}`);
}

function heapAfterGc(): number {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

interface RawExchange { status: number; headers: IncomingHttpHeaders; text: string; ended: boolean }

/** What a host app answers when its own body parser refuses a body (it never reaches the handler). */
const HOST_PARSE_ERROR = (message: string) => ({ jsonrpc: '2.0', id: null, error: { code: -32700, message } });

/**
 * Where the handler is reached: its own listener reads the bytes itself; Express and Fastify hand
 * it the body their parsers made, which must meet the same rules (the apps answer their parsers'
 * own refusals as JSON-RPC parse errors, as the README suggests).
 */
const HTTP_TARGETS: ReadonlyArray<{ name: string; serve: (server: PhantomServer) => Promise<{ url: string; close: () => Promise<void> }> }> = [
  {
    name: 'listen()',
    serve: async (server) => {
      const listener = await server.listen({ port: 0 });
      return { url: listener.url, close: () => listener.close() };
    },
  },
  {
    name: 'Express 5 after express.json()',
    serve: async (server) => {
      const app = express();
      app.use(express.json({ limit: '4mb' }));
      app.all('/mcp', server.httpHandler().handle);
      app.use((error: { status?: number; message: string }, _req: Request, res: Response, _next: NextFunction) => {
        res.status(error.status ?? 400).json(HOST_PARSE_ERROR(error.message));
      });
      const http = await new Promise<Server>((resolve) => { const s = app.listen(0, '127.0.0.1', () => resolve(s)); });
      return {
        url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
        close: () => new Promise((done) => { http.closeAllConnections(); http.close(() => done()); }),
      };
    },
  },
  {
    name: 'Fastify 5 with the parsed body',
    serve: async (server) => {
      const handler = server.httpHandler();
      const app = fastify({ bodyLimit: 4 * 1024 * 1024 });
      app.setErrorHandler((error: { statusCode?: number; message: string }, _request, reply) => {
        void reply.code(error.statusCode ?? 400).send(HOST_PARSE_ERROR(error.message));
      });
      app.all('/mcp', async (request, reply) => {
        reply.hijack();
        await handler.handle(request.raw, reply.raw, request.body);
      });
      await app.listen({ port: 0, host: '127.0.0.1' });
      return { url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/mcp`, close: () => app.close() };
    },
  },
];

/**
 * One raw HTTP exchange; a stream still open after `OPEN_STREAM_READ_MS` of silence past its
 * headers is cut. `ownConnection` keeps it off the pooled keep-alive sockets (a host that refuses
 * oversized headers may close the connection without saying so).
 */
function exchange(url: URL, method: string, headers: Record<string, string>, payload: string | undefined, ownConnection = false): Promise<RawExchange> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers, ...(ownConnection ? { agent: false } : {}) }, (res) => {
      let text = '';
      let idle: NodeJS.Timeout | undefined;
      const streaming = String(res.headers['content-type'] ?? '').startsWith('text/event-stream');
      const cut = () => { res.destroy(); resolve({ status: res.statusCode!, headers: res.headers, text, ended: false }); };
      const rearm = () => { if (streaming) { clearTimeout(idle); idle = setTimeout(cut, OPEN_STREAM_READ_MS); } };
      rearm();
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => { text += chunk; rearm(); });
      res.on('end', () => { clearTimeout(idle); resolve({ status: res.statusCode!, headers: res.headers, text, ended: true }); });
      res.on('error', () => { clearTimeout(idle); resolve({ status: res.statusCode!, headers: res.headers, text, ended: false }); });
    });
    req.setTimeout(ANSWER_DEADLINE_MS, () => req.destroy(new Error(`no answer within ${ANSWER_DEADLINE_MS} ms`)));
    req.on('error', reject);
    req.end(payload);
  });
}

/** JSON-RPC messages in a reply body: plain JSON (one or a batch) or SSE `data:` lines. */
function messagesOf(reply: RawExchange): unknown[] {
  if (reply.text === '') return [];
  if (String(reply.headers['content-type'] ?? '').startsWith('text/event-stream')) {
    return reply.text.split('\n\n').map((event) => event.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trim()).join(''))
      .filter((data) => data.length > 0).map((data) => JSON.parse(data));
  }
  const value = JSON.parse(reply.text);
  return Array.isArray(value) ? value : [value];
}

/** One JSON-RPC request object (not a batch, not malformed): what must be answered with its id. */
function isSingleRequest(text: string): boolean {
  let parsed: unknown;
  try { parsed = JSON.parse(text); } catch { return false; }
  const m = parsed as { jsonrpc?: unknown; method?: unknown; id?: unknown } | null;
  return typeof m === 'object' && m !== null && !Array.isArray(m) && m.jsonrpc === '2.0' && typeof m.method === 'string' && 'id' in m;
}

function isAnswer(message: unknown): message is { id: Id | null; result?: unknown; error?: { code: unknown; message: unknown } } {
  return typeof message === 'object' && message !== null && ('result' in message || 'error' in message);
}

function checkAnswers(answers: ReturnType<typeof messagesOf>, sentIds: readonly Id[], where: string): void {
  const seen = new Map<Id | null, number>();
  for (const answer of answers.filter(isAnswer)) {
    expect((answer as { jsonrpc?: unknown }).jsonrpc, `${where}: jsonrpc of ${JSON.stringify(answer)}`).to.equal('2.0');
    if (answer.error !== undefined) {
      expect(Number.isInteger(answer.error.code), `${where}: error code of ${JSON.stringify(answer)}`).to.equal(true);
      expect(answer.error.message, `${where}: error message`).to.be.a('string');
    }
    if (answer.id !== null) expect(sentIds, `${where}: an answer to an id nobody sent: ${JSON.stringify(answer)}`).to.include(answer.id);
    seen.set(answer.id, (seen.get(answer.id) ?? 0) + 1);
  }
  const sent = new Map<Id, number>();
  for (const id of sentIds) sent.set(id, (sent.get(id) ?? 0) + 1);
  for (const [id, count] of seen) if (id !== null) expect(count, `${where}: answers to id ${id}`).to.be.at.most(sent.get(id) ?? 0);
}

describe('hostile input (property-based)', function () {
  this.timeout(240_000);

  for (const target of HTTP_TARGETS) describe(`over Streamable HTTP, mounted by ${target.name}`, () => {
    let server: PhantomServer;
    const reported = failuresKept();
    let listener: { url: string; close: () => Promise<void> };
    let url: URL;
    /** Open sessions, one per revision in VERSIONS (2025-03-26 takes batches, the others refuse them). */
    const sessions: string[] = [];
    const VERSIONS = ['2025-03-26', '2025-11-25', '2025-06-18'];

    before(async () => {
      server = everythingServer({ requestTimeoutMs: 200, diagnostics: reported.diagnostics });
      listener = await target.serve(server);
      url = new URL(listener.url);
      for (const version of VERSIONS) sessions.push(await openSession(listener.url, {}, version));
    });

    after(async () => {
      await listener.close();
      await server.close();
    });

    it('answers every request once, with its id or a documented status, and keeps serving', async () => {
      let nextId = 1000;
      const heapBefore = heapAfterGc();
      const headerValue = fc.oneof(hostileString.map((s) => s.replace(/[^\t\x20-\x7e]/g, '')), fc.constantFrom('', ' ', ','));
      const sessionHeader = fc.oneof(
        // An index into the open sessions, read when the case runs (a DELETE replaces its session).
        { weight: 4, arbitrary: fc.nat({ max: sessions.length - 1 }) },
        { weight: 1, arbitrary: fc.constant(undefined) },
        { weight: 1, arbitrary: headerValue },
      );
      const anHttpCase = fc.boolean().chain((stateless) => fc.record({
        verb: fc.oneof({ weight: 8, arbitrary: fc.constant('POST') }, { weight: 2, arbitrary: fc.constantFrom('GET', 'DELETE', 'PUT', 'OPTIONS', 'PATCH') }),
        payload: body(stateless),
        session: stateless ? fc.constant(undefined) : sessionHeader,
        version: fc.option(fc.oneof(fc.constantFrom('2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'), headerValue), { nil: undefined }),
        accept: fc.oneof({ weight: 6, arbitrary: fc.constant(MCP_ACCEPT) }, { weight: 1, arbitrary: fc.constantFrom('application/json', 'text/event-stream', '*/*') }, { weight: 1, arbitrary: headerValue }),
        contentType: fc.oneof({ weight: 8, arbitrary: fc.constant('application/json') }, { weight: 1, arbitrary: headerValue }),
        extra: fc.dictionary(fc.constantFrom('mcp-method', 'mcp-name', 'last-event-id', 'mcp-param-text', 'origin', 'authorization'), headerValue, { maxKeys: 3 }),
      }));

      await holds(fc.asyncProperty(anHttpCase, async (c) => {
        const { text, ids, carried } = numberIds(c.payload, () => (nextId += 1));
        const headers: Record<string, string> = { accept: c.accept, 'content-type': c.contentType, ...c.extra };
        const session = typeof c.session === 'number' ? sessions[c.session] : c.session;
        if (session !== undefined) headers['mcp-session-id'] = session;
        if (c.version !== undefined) headers['mcp-protocol-version'] = c.version;
        if (headers.origin !== undefined && headers.origin.trim() === '') delete headers.origin;
        const withBody = c.verb === 'POST' || c.verb === 'PUT' || c.verb === 'PATCH';
        // Headers past Node's maxHeaderSize are refused before any handler runs, by Node or the
        // host framework in its own words (Fastify may drop the connection as it answers 431).
        const oversized = Object.entries(headers).reduce((size, [name, value]) => size + name.length + value.length + 4, 0) > 15 * 1024;
        const reply = await exchange(url, c.verb, headers, withBody ? text : undefined, oversized).catch((error: unknown) => {
          if (oversized) return undefined;
          throw error;
        });
        if (reply === undefined || (oversized && reply.status === 431)) return;
        const where = `${c.verb} ${text.slice(0, 200)} -> ${reply.status} ${reply.text.slice(0, 200)}`;

        expect(DOCUMENTED_STATUSES.has(reply.status), `${where}: undocumented status`).to.equal(true);
        const answers = messagesOf(reply);
        checkAnswers(answers, carried, where);
        // A single request that the server accepted is answered with its id, unless its stream
        // legitimately stays open (a standalone or listen stream).
        const single = ids.length === 1 && !text.trimStart().startsWith('[');
        if (c.verb === 'POST' && single && reply.ended && reply.status === 200) {
          expect(answers.filter(isAnswer).map((a) => a.id), `${where}: the answer to the request`).to.deep.equal([ids[0]]);
        }
        if (c.verb === 'DELETE' && reply.status === 200 && typeof c.session === 'number') sessions[c.session] = await openSession(listener.url, {}, VERSIONS[c.session]);
        if (reply.status >= 400 && reply.text !== '') {
          const [error] = answers as Array<{ id: unknown }>;
          expect(error.id === null || carried.includes(error.id as Id), `${where}: the error's id`).to.equal(true);
        }
      }), { numRuns: target.name === 'listen()' ? RUNS : Math.ceil(RUNS / 2), seed: SEED, endOnFailure: true });

      // The process is up and the next good request is served, through the official client.
      const { client } = await connectHttp(listener.url);
      expect(await client.callTool({ name: 'echo', arguments: { text: 'still here' } })).to.deep.equal({ content: [{ type: 'text', text: 'still here' }] });
      await client.close();
      expect(heapAfterGc() - heapBefore, 'heap growth after the run (bytes)').to.be.below(64 * 1024 * 1024);
      expect(reported.failures, 'what the server reported as its own failure').to.deep.equal([]);
    });
  });

  describe('over stdio', () => {
    it('answers every request line once, with its id, and keeps serving', async () => {
      const reported = failuresKept();
      const heapBefore = heapAfterGc();
      const initialize = (protocolVersion: string) => JSON.stringify({ jsonrpc: '2.0', id: 'fresh', method: 'initialize', params: { protocolVersion, capabilities: { elicitation: {}, sampling: {}, roots: {} }, clientInfo: { name: 'fuzz', version: '1' } } });
      const initialized = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' });
      // Half the pipes start with a proper handshake, so session-era methods are reached too; at
      // 2025-03-26 a batch line is served, at later revisions refused.
      const handshake = fc.option(fc.constantFrom('2025-03-26', '2025-06-18', '2025-11-25'), { nil: undefined });
      const aPipe = fc.boolean().chain((stateless) => fc.tuple(handshake, fc.array(body(stateless), { minLength: 1, maxLength: 12 })))
        .map(([version, rest]) => (version ? [initialize(version), initialized, ...rest] : rest));
      await holds(fc.asyncProperty(aPipe, async (lines) => {
        const server = everythingServer({ requestTimeoutMs: 200, diagnostics: reported.diagnostics });
        const input = new PassThrough();
        const output = new PassThrough();
        const answers: unknown[] = [];
        let buffered = '';
        output.setEncoding('utf8');
        output.on('data', (chunk: string) => {
          buffered += chunk;
          for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
            answers.push(JSON.parse(buffered.slice(0, end)));
            buffered = buffered.slice(end + 1);
          }
        });
        const connection = await server.connect(new StdioTransport({ input, output }));
        let nextId = 0;
        const sent = lines.map((line) => numberIds(line, () => (nextId += 1)));
        const carried = sent.flatMap((s) => s.carried);
        // A well-formed final ping proves the pipe still serves after whatever came before.
        const probe = `{"jsonrpc":"2.0","id":"probe","method":"ping"}`;
        for (const { text } of sent) input.write(`${text.replace(/\n/g, ' ')}\n`);
        input.write(`${probe}\n`);

        const answered = (id: Id) => answers.some((a) => isAnswer(a) && a.id === id);
        // Only a line holding one well-formed request can be required to have an answer with its
        // id: a batch of a revision that refuses them, or a truncated line, is answered with null.
        // Listen streams stay open by design.
        // A request a later line cancels (notifications/cancelled naming its id) need not be
        // answered: the spec says a server should not answer a cancelled request.
        const cancelled = new Set(sent.flatMap(({ text }) => cancelledIds(text)));
        const required = sent.filter(({ text, ids: lineIds }) => lineIds.length === 1 && isSingleRequest(text) && !text.includes('"subscriptions/listen"'))
          .map(({ ids: lineIds }) => lineIds[0])
          .filter((id) => !cancelled.has(id));
        for (let waited = 0; !(answered('probe') && required.every(answered)) && waited < ANSWER_DEADLINE_MS; waited += 10) {
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        input.end();
        await connection.done;
        await server.close();

        const where = `lines ${JSON.stringify(sent.map((s) => s.text.slice(0, 160)))} -> ${JSON.stringify(answers).slice(0, 600)}`;
        checkAnswers(answers, [...carried, 'probe'], where);
        expect(answered('probe'), `${where}: the probe ping`).to.equal(true);
        for (const id of required) expect(answered(id), `${where}: an answer to request ${id}`).to.equal(true);
      }), { numRuns: Math.ceil(RUNS / 3), seed: SEED, endOnFailure: true });
      expect(heapAfterGc() - heapBefore, 'heap growth after the run (bytes)').to.be.below(64 * 1024 * 1024);
      expect(reported.failures, 'what the server reported as its own failure').to.deep.equal([]);
    });
  });
});
