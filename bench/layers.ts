import 'reflect-metadata';
import { EventEmitter } from 'node:events';
import { Readable } from 'node:stream';
import { Context, PhantomServer } from 'phantom-mcp';
import { CALLS, type Call } from './harness/dialects';
import { toolProviders } from './fixtures/phantom.fixtures';

/**
 * Where a call's CPU goes inside phantom, without sockets: the same `tools/call` through deeper
 * and deeper layers of one server, in this process, 50 calls at a time, CPU time per call.
 *
 * - `router`: `server.handle` (lookup, visibility, pipeline, argument validation, the handler, the result);
 * - `json`: the same with the request parsed and the response serialised (what bare node:http also pays);
 * - `handler, parsed body`: the HTTP handler given the body text (gate, dispatcher, era, exchange, headers);
 * - `handler, stream body`: the HTTP handler reading the body from a fresh `Readable`, as from a socket.
 *
 * The difference between two rows is what the deeper layer adds. Timing noise between runs is a
 * few tenths of a microsecond on a quiet machine; compare rows of one run.
 *
 * @example
 * npx tsc -p tsconfig.json && npx tsc -p bench/tsconfig.json && node dist/bench/layers.js [--calls 200000]
 *   [--era session|stateless] [--call echo|realistic] [--layer router|json|parsed|stream]
 * The filters run only the rows named (to profile one: `node --cpu-prof dist/bench/layers.js --era session --call echo --layer parsed`).
 */
async function main(argv: readonly string[]): Promise<void> {
  const option = (name: string) => { const at = argv.indexOf(`--${name}`); return at === -1 ? undefined : argv[at + 1]; };
  const calls = Number(option('calls') ?? 200_000);
  const only = (name: string, value: string) => option(name) === undefined || option(name) === value;
  for (const era of (['session', 'stateless'] as const).filter((e) => only('era', e))) {
    for (const [name, call] of ([['echo', CALLS.echo], ['realistic', CALLS.realistic]] as const).filter(([n]) => only('call', n))) {
      const server = new PhantomServer({ name: 'bench', version: '1.0.0', providers: toolProviders(1) });
      const handle = server.httpHandler().handle;
      const http = await httpRequest(handle, era, call);
      const rows: Array<[string, string, (i: number) => Promise<unknown>]> = [
        ['router', 'router', () => server.handle(call.method, call.params, new Context())],
        ['json', 'json', (i) => server.handle(call.method, JSON.parse(JSON.stringify(call.params)), new Context()).then((o) => JSON.stringify({ jsonrpc: '2.0', id: i, ...o }))],
        ['parsed', 'handler, parsed body', (i) => handle(http.lite, new FakeResponse(), http.body(i))],
        ['stream', 'handler, stream body', (i) => handle(http.streamed(i), new FakeResponse())],
      ];
      for (const [, layer, one] of rows.filter(([key]) => only('layer', key))) {
        const us = await cpuPerCall(one, calls);
        console.log(`${era.padEnd(9)} ${name.padEnd(9)} ${layer.padEnd(22)} ${us.toFixed(2).padStart(6)} us/call`);
      }
      await server.close();
    }
  }
}

/** CPU time per call over `calls` calls, 50 in flight, after a warm-up of a tenth as many. */
async function cpuPerCall(one: (i: number) => Promise<unknown>, calls: number): Promise<number> {
  const run = async (count: number) => {
    let next = 0;
    await Promise.all(Array.from({ length: 50 }, async () => {
      while (next < count) await one(next++);
    }));
  };
  await run(Math.ceil(calls / 10));
  const started = process.cpuUsage();
  await run(calls);
  const used = process.cpuUsage(started);
  return (used.user + used.system) / calls;
}

type Handle = (req: never, res: never, body?: unknown) => Promise<void>;

interface HttpRequest {
  /** One request object with the body already read (a host's body parser's case). */
  readonly lite: never;
  readonly body: (id: number) => string;
  /** A fresh request whose body is still on its stream. */
  readonly streamed: (id: number) => never;
}

/** What the era's client sends for `call`; a session-era session is opened first. */
async function httpRequest(handle: Handle, era: 'session' | 'stateless', call: Call): Promise<HttpRequest> {
  const base = { host: '127.0.0.1', 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  let headers: Record<string, string>;
  let params: Record<string, unknown> = call.params;
  if (era === 'stateless') {
    headers = { ...base, 'mcp-protocol-version': '2026-07-28', 'mcp-method': call.method, 'mcp-name': call.name ?? '' };
    params = { ...call.params, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } };
  } else {
    const opened = new FakeResponse();
    const initialize = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'layers', version: '1.0.0' } } };
    await handle(liteRequest(base), opened as never, JSON.stringify(initialize));
    headers = { ...base, 'mcp-protocol-version': '2025-11-25', 'mcp-session-id': opened.header('mcp-session-id') ?? '' };
    await handle(liteRequest(headers), new FakeResponse() as never, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  }
  const body = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, method: call.method, params });
  return { lite: liteRequest(headers), body, streamed: (id) => streamRequest(headers, body(id)) };
}

function liteRequest(headers: Record<string, string>): never {
  return { headers, rawHeaders: Object.entries(headers).flat(), method: 'POST', url: '/mcp', complete: true, readableEnded: true, readableDidRead: true, destroyed: false } as never;
}

function streamRequest(headers: Record<string, string>, body: string): never {
  const req = Object.assign(new Readable({ read() {} }), { headers, rawHeaders: Object.entries(headers).flat(), method: 'POST', url: '/mcp', complete: true });
  req.push(Buffer.from(body));
  req.push(null);
  return req as never;
}

/** Enough of a `ServerResponse` for one JSON answer: it keeps the headers and the body. */
class FakeResponse extends EventEmitter {
  headersSent = false;
  destroyed = false;
  writableEnded = false;
  writableLength = 0;
  private headers: readonly string[] = [];

  setHeader(): void {}
  flushHeaders(): void {}
  write(): boolean {
    return true;
  }

  writeHead(_status: number, headers?: Record<string, string> | string[]): this {
    this.headersSent = true;
    this.headers = Array.isArray(headers) ? headers : Object.entries(headers ?? {}).flat();
    return this;
  }

  end(): void {
    this.writableEnded = true;
    this.emit('close');
  }

  destroy(): void {
    this.destroyed = true;
  }

  header(name: string): string | undefined {
    const at = this.headers.indexOf(name);
    return at === -1 ? undefined : this.headers[at + 1];
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
