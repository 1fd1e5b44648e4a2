import { registered, type Registration } from '../fixtures/registration';
import { messageOf, post, type HttpReply } from './http-client';

type Json = Record<string, unknown>;

/** One JSON-RPC request as a benchmark sends it over and over. */
export interface Call {
  readonly method: string;
  readonly params: Json;
  /** `Mcp-Name` in the stateless era: the tool's name or the resource's URI. */
  readonly name?: string;
  /** Whether a result is the right answer; the probe checks it before anything is measured. */
  readonly verify: (result: any) => boolean;
  /**
   * Argument sets a server doing the call's work must refuse (a tool error or a JSON-RPC error):
   * the probe sends each, so no contender is measured doing less checking than the others.
   */
  readonly refusals?: readonly Json[];
}

export const ECHO_TEXT = 'hello';

/** The realistic tool's arguments: every field valid, so every contender validates all five and answers. */
export const REGISTRATION: Registration = { name: 'Ada Lovelace', age: 36, email: 'ada@example.com', tags: ['mathematics', 'engines', 'poetry'], birthday: '1815-12-10' };

/** The registration with one field changed. */
const breaking = (field: Partial<Record<keyof Registration, unknown>>): Json => ({ ...REGISTRATION, ...field });
const missing = (field: keyof Registration): Json => Object.fromEntries(Object.entries(REGISTRATION).filter(([key]) => key !== field));

/** One registration per rule of `../fixtures/registration.ts`, each breaking only that rule: every contender must refuse all. */
export const REFUSED_REGISTRATIONS: readonly Json[] = [
  breaking({ name: 'A' }), breaking({ name: 'x'.repeat(65) }), breaking({ name: 42 }), missing('name'),
  breaking({ age: 12 }), breaking({ age: 121 }), breaking({ age: 36.5 }), breaking({ age: '36' }),
  breaking({ email: 'ada' }), breaking({ email: 'ada@' }),
  breaking({ tags: [] }), breaking({ tags: Array.from({ length: 11 }, (_, i) => `t${i}`) }), breaking({ tags: ['ok', 7] }),
  breaking({ birthday: '10/12/1815' }), breaking({ birthday: '1815-13-10' }),
];

/**
 * The calls the benchmarks make: the echo tool, the realistic `register` tool (five validated
 * fields, `../fixtures/registration.ts`), a page of the tool list, the echo template.
 */
export const CALLS = {
  echo: {
    method: 'tools/call',
    params: { name: 'echo', arguments: { text: ECHO_TEXT } },
    name: 'echo',
    verify: (result) => result?.content?.[0]?.text === ECHO_TEXT,
  },
  realistic: {
    method: 'tools/call',
    params: { name: 'register', arguments: { ...REGISTRATION } },
    name: 'register',
    verify: (result) => result?.content?.[0]?.text === registered(REGISTRATION),
    refusals: REFUSED_REGISTRATIONS,
  },
  list: {
    method: 'tools/list',
    params: {},
    verify: (result) => Array.isArray(result?.tools) && result.tools.length > 0,
  },
  read: {
    method: 'resources/read',
    params: { uri: `bench://echo/${ECHO_TEXT}` },
    name: `bench://echo/${ECHO_TEXT}`,
    verify: (result) => result?.contents?.[0]?.text === ECHO_TEXT,
  },
} as const satisfies Record<string, Call>;

/** A call ready to send: its headers, and its body for a given request id. */
export interface Prepared {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  /** A fresh id per request: a session-era server routes each answer by its id. */
  body(id: number): string;
}

/** A client's view of a contender once it has done what the contender needs first (a session). */
export interface Connection {
  prepare(call: Call): Prepared;
}

/** How a contender is spoken to; `extra` headers go on every request (a bearer token). */
export interface Dialect {
  connect(url: string, extra?: Readonly<Record<string, string>>): Promise<Connection>;
  /**
   * Opens one session and leaves it idle (the memory suite opens thousands); only dialects whose
   * servers keep sessions have one.
   */
  openIdleSession?(url: string): Promise<void>;
}

const SESSION_VERSION = '2025-11-25';
const STATELESS_VERSION = '2026-07-28';
const JSON_TYPE = { 'content-type': 'application/json' };
const MCP_ACCEPT = { ...JSON_TYPE, accept: 'application/json, text/event-stream' };

/** Plain JSON-RPC over POST: the bare baseline. */
export const PLAIN_JSON_RPC: Dialect = {
  connect: async (url, extra = {}) => ({ prepare: (call) => ({ url, headers: { ...JSON_TYPE, ...extra }, body: bodyOf(call.method, call.params) }) }),
};

/** The session era: `initialize`, `notifications/initialized`, then every request names the session. */
export const SESSION_ERA: Dialect = {
  connect: async (url, extra = {}) => {
    const { sessionId, protocolVersion } = await openSession(url, extra);
    const headers = { ...MCP_ACCEPT, ...extra, 'mcp-session-id': sessionId, 'mcp-protocol-version': protocolVersion };
    return { prepare: (call) => ({ url, headers, body: bodyOf(call.method, call.params) }) };
  },
  openIdleSession: async (url) => void (await openSession(url)),
};

/**
 * The SDK's stateless mode (protocol 2025-11-25 without a session): each POST stands alone, and
 * the per-request server the SDK documents answers it without an `initialize` of its own.
 */
export const SESSIONLESS: Dialect = {
  connect: async (url, extra = {}) => {
    const headers = { ...MCP_ACCEPT, ...extra, 'mcp-protocol-version': SESSION_VERSION };
    return { prepare: (call) => ({ url, headers, body: bodyOf(call.method, call.params) }) };
  },
};

/**
 * The stateless era (protocol 2026-07-28): no `initialize`; every request carries the version and
 * the client's capabilities in `params._meta`, and its method and name in headers.
 */
export const STATELESS_ERA: Dialect = {
  connect: async (url, extra = {}) => ({
    prepare: (call) => ({
      url,
      headers: {
        ...MCP_ACCEPT,
        ...extra,
        'mcp-protocol-version': STATELESS_VERSION,
        'mcp-method': call.method,
        ...(call.name === undefined ? {} : { 'mcp-name': call.name }),
      },
      body: bodyOf(call.method, {
        ...call.params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': STATELESS_VERSION,
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      }),
    }),
  }),
};

/**
 * Opens (and initialises) one session-era session, declaring `capabilities` (none by default);
 * used for the idle-session memory measure and the eliciting client too.
 */
export async function openSession(url: string, extra: Readonly<Record<string, string>> = {}, capabilities: Json = {}): Promise<{ sessionId: string; protocolVersion: string }> {
  const init = await post(url, { ...MCP_ACCEPT, ...extra }, JSON.stringify({
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: SESSION_VERSION, capabilities, clientInfo: { name: 'phantom-bench', version: '1.0.0' } },
  }));
  const sessionId = init.headers['mcp-session-id'];
  const result = messageOf(init)?.result as { protocolVersion?: string } | undefined;
  if (init.status !== 200 || typeof sessionId !== 'string' || !result?.protocolVersion) throw new Error(`initialize failed: ${describe(init)}`);
  const headers = { ...MCP_ACCEPT, ...extra, 'mcp-session-id': sessionId, 'mcp-protocol-version': result.protocolVersion };
  const initialized = await post(url, headers, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  if (initialized.status !== 202) throw new Error(`notifications/initialized failed: ${describe(initialized)}`);
  return { sessionId, protocolVersion: result.protocolVersion };
}

/** Sends a prepared call once and checks the answer; throws with what came back instead. */
export async function probe(prepared: Prepared, call: Call): Promise<void> {
  const reply = await post(prepared.url, prepared.headers, prepared.body(0));
  const message = messageOf(reply);
  if (reply.status !== 200 || !message || !('result' in message) || !call.verify(message.result)) {
    throw new Error(`${call.method} was not answered as expected: ${describe(reply)}`);
  }
}

/**
 * Sends each of the call's refusals through the same connection and checks that each is refused:
 * a JSON-RPC error, or a result with `isError` (input errors are tool errors since 2025-11-25).
 * Throws naming the first argument set a contender accepted.
 */
export async function probeRefusals(connection: Connection, call: Call): Promise<void> {
  for (const args of call.refusals ?? []) {
    const refused = connection.prepare({ ...call, params: { ...call.params, arguments: args } });
    const reply = await post(refused.url, refused.headers, refused.body(0));
    const message = messageOf(reply);
    const isRefusal = (reply.status >= 400 && reply.status < 500) || (message !== undefined && ('error' in message || (message.result as { isError?: boolean } | undefined)?.isError === true));
    if (!isRefusal) throw new Error(`${call.name ?? call.method} accepted arguments it must refuse, ${JSON.stringify(args)}: ${describe(reply)}`);
  }
}

/** `{"jsonrpc":"2.0","id":<id>,"method":...,"params":...}`, with everything but the id built once. */
function bodyOf(method: string, params: Json): (id: number) => string {
  const tail = `,"method":${JSON.stringify(method)},"params":${JSON.stringify(params)}}`;
  return (id) => `{"jsonrpc":"2.0","id":${id}${tail}`;
}

function describe(reply: HttpReply): string {
  const text = reply.text.length > 300 ? `${reply.text.slice(0, 300)}…` : reply.text;
  return `HTTP ${reply.status} ${text}`.trim();
}
