import fc from 'fast-check';

/**
 * Generators of what a hostile or broken client sends: malformed and deeply nested JSON, every
 * method with wrong types at every level of its params, hostile headers, URIs and cursors, and
 * responses nobody asked for. Shared by the HTTP and stdio fuzz specs.
 */

export const METHODS = [
  'initialize', 'ping', 'tools/list', 'tools/call', 'resources/list', 'resources/templates/list', 'resources/read',
  'resources/subscribe', 'resources/unsubscribe', 'prompts/list', 'prompts/get', 'completion/complete',
  'logging/setLevel', 'server/discover', 'subscriptions/listen', 'elicitation/create', 'sampling/createMessage', 'roots/list',
] as const;

export const NOTIFICATIONS = [
  'notifications/initialized', 'notifications/cancelled', 'notifications/progress', 'notifications/roots/list_changed',
  'notifications/message', 'notifications/whatever',
] as const;

/** Tools of the everything fixture that end on their own (`wait` waits for a cancel). */
const TOOL_NAMES = ['echo', 'steps', 'chatty', 'greet', 'trip', 'signIn', 'guarded', 'ask', 'roots', 'touch', 'extra'];

const STATELESS_VERSION = '2026-07-28';

/** Text as hostile clients send it: control characters, quotes, long runs, lone surrogates. */
export const hostileString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('', ' ', '__proto__', 'constructor', 'hasOwnProperty', '\u0000', '\ud800', '../../etc/passwd', '%00', '%', '%zz', '{', '}'),
  fc.integer({ min: 1, max: 200 }).map((n) => 'a'.repeat(n * 50)),
);

export const hostileUri = fc.oneof(
  hostileString,
  fc.constantFrom('test://watched', 'test://items/1', 'test://items/', 'test://items/%2F..%2F', 'test://items/{id}', 'secret://doc', 'file:///etc/passwd'),
  fc.integer({ min: 1, max: 64 }).map((n) => `test://items/${'x'.repeat(n * 1024)}`),
  fc.string({ maxLength: 30 }).map((s) => `test://items/${encodeURIComponent(s)}`),
);

const leafValue = fc.oneof(fc.constant(null), fc.boolean(), fc.integer(), fc.double(), hostileString);

/** Any JSON value, a few levels deep. */
export const anyJson: fc.Arbitrary<unknown> = fc.oneof(
  { depthSize: 'small' },
  leafValue,
  fc.jsonValue({ maxDepth: 4 }),
  fc.array(leafValue, { maxLength: 5 }),
);

/** `depth` levels of arrays or objects around a value, as text (cheap to build, expensive to parse naively). */
export function nestedText(depth: number, inner = '1', kind: 'array' | 'object' = 'array'): string {
  return kind === 'array' ? `${'['.repeat(depth)}${inner}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}${inner}${'}'.repeat(depth)}`;
}

const deepDepth = fc.integer({ min: 50, max: 20_000 });

/** Well-formed params of each method, to be broken at one point. */
function templateParams(method: string): fc.Arbitrary<Record<string, unknown>> {
  const byMethod: Record<string, fc.Arbitrary<Record<string, unknown>>> = {
    initialize: fc.record({
      protocolVersion: fc.constantFrom('2025-03-26', '2025-06-18', '2025-11-25', '1999-01-01'),
      capabilities: fc.constantFrom({}, { elicitation: {} }, { sampling: {}, roots: { listChanged: true } }),
      clientInfo: fc.constant({ name: 'fuzz', version: '1' }),
    }),
    'tools/call': fc.record({ name: fc.oneof(fc.constantFrom(...TOOL_NAMES), hostileString), arguments: fc.oneof(fc.record({ text: hostileString }), fc.dictionary(hostileString, anyJson, { maxKeys: 4 })) }),
    'resources/read': fc.record({ uri: hostileUri }),
    'resources/subscribe': fc.record({ uri: hostileUri }),
    'resources/unsubscribe': fc.record({ uri: hostileUri }),
    'prompts/get': fc.record({ name: fc.oneof(fc.constant('hello'), hostileString), arguments: fc.dictionary(hostileString, anyJson, { maxKeys: 3 }) }),
    'completion/complete': fc.record({
      ref: fc.oneof(
        fc.record({ type: fc.constant('ref/prompt'), name: fc.oneof(fc.constant('hello'), hostileString) }),
        fc.record({ type: fc.constant('ref/resource'), uri: fc.oneof(fc.constant('test://items/{id}'), hostileUri) }),
        anyJson,
      ),
      argument: fc.record({ name: fc.oneof(fc.constantFrom('id', 'text'), hostileString), value: hostileString }),
    }),
    'logging/setLevel': fc.record({ level: fc.oneof(fc.constantFrom('debug', 'info', 'warning', 'error', 'emergency'), hostileString) }),
    'subscriptions/listen': fc.record({ notifications: fc.oneof(fc.record({ toolsListChanged: fc.boolean(), resourceSubscriptions: fc.array(hostileUri, { maxLength: 3 }) }), anyJson) }),
  };
  const list = fc.record({ cursor: fc.oneof(hostileString, fc.string({ unit: 'binary' }), fc.base64String({ maxLength: 80 })) }, { requiredKeys: [] });
  return byMethod[method] ?? list;
}

/** Replaces the value at one random path of an object with a value of any type. */
function breakAt(value: Record<string, unknown>): fc.Arbitrary<unknown> {
  const paths: string[][] = [];
  const walk = (node: unknown, path: string[]) => {
    paths.push(path);
    if (node && typeof node === 'object') for (const key of Object.keys(node)) walk((node as Record<string, unknown>)[key], [...path, key]);
  };
  walk(value, []);
  return fc.tuple(fc.constantFrom(...paths), anyJson).map(([path, replacement]) => {
    if (path.length === 0) return replacement;
    const copy = structuredClone(value);
    let node = copy as Record<string, unknown>;
    for (const key of path.slice(0, -1)) node = node[key] as Record<string, unknown>;
    node[path[path.length - 1]] = replacement;
    return copy;
  });
}

/** Params for `method`: well-formed, broken at one point, or anything at all. */
export function paramsFor(method: string, stateless: boolean): fc.Arbitrary<unknown> {
  const meta = stateless
    ? fc.oneof(
      fc.constant({ 'io.modelcontextprotocol/protocolVersion': STATELESS_VERSION, 'io.modelcontextprotocol/clientInfo': { name: 'fuzz', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } }),
      fc.record({ 'io.modelcontextprotocol/protocolVersion': fc.oneof(fc.constant(STATELESS_VERSION), hostileString), 'io.modelcontextprotocol/clientCapabilities': anyJson }),
      fc.record({ progressToken: anyJson, 'io.modelcontextprotocol/protocolVersion': fc.constant(STATELESS_VERSION) }),
    )
    : fc.option(fc.record({ progressToken: fc.oneof(fc.integer(), hostileString, anyJson) }), { nil: undefined });
  const wellFormed = fc.tuple(templateParams(method), meta).map(([params, m]) => (m === undefined ? params : { ...params, _meta: m }));
  return fc.oneof(
    { weight: 3, arbitrary: wellFormed },
    { weight: 4, arbitrary: wellFormed.chain(breakAt) },
    { weight: 1, arbitrary: anyJson },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
}

/** A JSON-RPC id as clients get it wrong: fine, reused (perhaps by a request still running), or of a type the spec forbids. */
export const hostileId: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: fc.constant('fresh') },
  { weight: 1, arbitrary: fc.constantFrom(7, 'again') },
  { weight: 1, arbitrary: fc.constantFrom(null, true, 1.5, [], {}, Number.MAX_SAFE_INTEGER + 2) },
);

/** One message as a JS value: a request, a notification, a response nobody asked for, or junk. */
export function message(stateless: boolean): fc.Arbitrary<unknown> {
  const request = fc.constantFrom(...METHODS).chain((method) => fc.record({
    jsonrpc: fc.oneof({ weight: 9, arbitrary: fc.constant('2.0') }, { weight: 1, arbitrary: anyJson }),
    id: hostileId,
    method: fc.oneof({ weight: 9, arbitrary: fc.constant(method) }, { weight: 1, arbitrary: anyJson }),
    params: paramsFor(method, stateless),
  }, { requiredKeys: ['jsonrpc', 'id', 'method'] }));
  const note = fc.record({
    jsonrpc: fc.constant('2.0'),
    method: fc.constantFrom(...NOTIFICATIONS),
    params: fc.oneof(fc.record({ requestId: fc.oneof(fc.integer({ min: 0, max: 50 }), hostileString), reason: hostileString }), anyJson),
  }, { requiredKeys: ['jsonrpc', 'method'] });
  // Ids the server's own requests to the client use, so answers land early, late, twice or wrong.
  const response = fc.record({
    jsonrpc: fc.constant('2.0'),
    id: fc.oneof(fc.integer({ min: 0, max: 40 }), hostileString, fc.constant(null)),
    body: fc.oneof(
      fc.record({ result: fc.oneof(fc.constant({ action: 'accept', content: { name: 'x', role: 'y' } }), fc.constant({ roots: [{ uri: 'file:///x' }] }), anyJson) }),
      fc.record({ error: fc.oneof(fc.record({ code: fc.oneof(fc.integer(), fc.double(), hostileString), message: hostileString }), anyJson) }),
    ),
  }).map(({ body, ...rest }) => ({ ...rest, ...body }));
  return fc.oneof({ weight: 8, arbitrary: request }, { weight: 2, arbitrary: note }, { weight: 2, arbitrary: response }, { weight: 1, arbitrary: anyJson });
}

/** Bytes on the wire: JSON of a message, a batch, malformed text, or nesting far past any limit. */
export function body(stateless: boolean): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 10, arbitrary: message(stateless).map((m) => JSON.stringify(m) ?? 'undefined') },
    { weight: 2, arbitrary: fc.array(message(stateless), { maxLength: 4 }).map((batch) => JSON.stringify(batch)) },
    { weight: 1, arbitrary: hostileString },
    { weight: 1, arbitrary: message(stateless).map((m) => (JSON.stringify(m) ?? '').slice(0, -3)) },
    { weight: 1, arbitrary: deepDepth.map((d) => nestedText(d)) },
    {
      weight: 2, arbitrary: fc.tuple(deepDepth, fc.constantFrom('array', 'object') as fc.Arbitrary<'array' | 'object'>).map(([d, kind]) => JSON.stringify({
        jsonrpc: '2.0', id: 'fresh', method: 'initialize',
        params: { protocolVersion: '2025-11-25', clientInfo: { name: 'deep', version: '1' }, capabilities: { x: 0 } },
      }).replace('{"x":0}', nestedText(d, '{}', kind))),
    },
    {
      weight: 1, arbitrary: deepDepth.map((d) => JSON.stringify({ jsonrpc: '2.0', id: 'fresh', method: 'tools/call', params: { name: 'echo', arguments: { text: 0 } } })
        .replace('"text":0', `"text":${nestedText(d)}`)),
    },
  );
}
