import { InMemoryTaskStore } from '../../../lib/protocol/seams/task-store';
import { taskLimits } from '../../../lib/protocol/tasks/task-options';
import { TaskService } from '../../../lib/protocol/tasks/task-service';
import { Cancellation } from '../../../lib/core/cancellation';
import { toErrorObject } from '../../../lib/core/error-mapper';
import { SILENT_DIAGNOSTICS, type Context, type Diagnostics, type JsonObject } from '../../../lib';
import type { JsonRpcMessage, JsonRpcRequest, RequestId } from '../../../lib/core/jsonrpc';
import type { Outcome, OperationInfo } from '../../../lib/router/router';
import type { Arrival, InFlightKind } from '../../../lib/protocol/arrival';
import type { Exchange, InFlight } from '../../../lib/protocol/in-flight';
import { ServerEvents } from '../../../lib/protocol/events/server-events';
import { InProcessSessionBus, type SessionBus } from '../../../lib/protocol/seams/session-bus';
import { RunningRequests } from '../../../lib/protocol/running-requests';
import { SessionEngine, type SessionEngineOptions, type SessionRouter } from '../../../lib/protocol/session-era/session-engine';
import type { SessionState } from '../../../lib/protocol/seams/session-state';
import type { SessionChange, SessionStore } from '../../../lib/protocol/seams/session-store';
import type { ListKind } from '../../../lib/core/methods';
import type { ToolDefinition } from '../../../lib/definitions/definitions';
import type { ToolVisibility } from '../../../lib/router/extensions/tool-visibility';

/** An exchange that records what is sent on it. */
export class FakeExchange implements Exchange {
  readonly sent: JsonRpcMessage[] = [];
  open = true;

  send(message: JsonRpcMessage): void {
    this.sent.push(message);
  }

  /** The server-to-client requests sent so far. */
  get requests(): JsonRpcRequest[] {
    return this.sent.filter((m): m is JsonRpcRequest => 'method' in m && 'id' in m);
  }
}

/** A store of plain objects whose sessions expire when the spec says so (as a Redis TTL would). */
export class FakeStore implements SessionStore {
  readonly sessions = new Map<string, SessionState>();
  private readonly expiredListeners = new Set<(id: string) => void>();

  async load(id: string) { return this.sessions.get(id); }
  async save(state: SessionState) { this.sessions.set(state.id, { ...state }); }
  async update(id: string, change: SessionChange) {
    const current = this.sessions.get(id);
    const next = current && change(current);
    if (next) this.sessions.set(id, next);
    return next ?? current;
  }
  async delete(id: string) { return this.sessions.delete(id); }
  async touch() {}
  async subscribers(uri: string) { return [...this.sessions.values()].filter((s) => s.subscriptions.includes(uri)).map((s) => s.id); }
  async count() { return this.sessions.size; }
  onExpired(listener: (id: string) => void) {
    this.expiredListeners.add(listener);
    return () => this.expiredListeners.delete(listener);
  }
  async close() {}

  /** The session's lifetime ran out: gone, and every listener told. */
  expire(id: string): void {
    this.sessions.delete(id);
    for (const listener of this.expiredListeners) listener(id);
  }
}

/** A clock that moves only when told. */
export class FakeClock {
  constructor(public now = 1_000_000) {}
  readonly read = () => this.now;
}

/** What a fake tool does with its context (`router` to record what it saw). */
export type FakeTool = (ctx: Context, params: JsonObject, router: FakeRouter) => JsonObject | Promise<JsonObject>;

/**
 * A router serving `tools/call` with the tools a spec names, and the protocol's own methods
 * straight through (no guards): enough for the protocol layer, without the front half.
 */
export class FakeRouter implements SessionRouter {
  readonly contexts: Context[] = [];
  /** What each `sample` tool's `ctx.sample` came to. */
  readonly asked: Promise<JsonObject>[] = [];

  constructor(readonly tools: Record<string, FakeTool> = {}) {}

  handles(method: string): method is never {
    return method === 'tools/call';
  }

  /** As the router does: at once for a tool that answers at once, else once it has answered. */
  route(_method: string, params: unknown, ctx: Context): Outcome | Promise<Outcome> {
    this.contexts.push(ctx);
    const { name } = (params ?? {}) as JsonObject;
    const tool = this.tools[name as string];
    if (!tool) return { error: { code: -32602, message: `Unknown tool: ${String(name)}` } };
    const failed = (error: unknown): Outcome => ({ error: toErrorObject(error, 'tools/call', SILENT_DIAGNOSTICS) });
    try {
      const result = tool(ctx, (params ?? {}) as JsonObject, this);
      return result instanceof Promise ? result.then((value) => ({ result: value }), failed) : { result };
    } catch (error) {
      return failed(error);
    }
  }

  async operate<T>(_operation: OperationInfo, params: JsonObject, ctx: Context, perform: (params: JsonObject, ctx: Context) => Promise<T>): Promise<Outcome<T>> {
    try {
      return { result: await perform(params, ctx) };
    } catch (error) {
      return { error: toErrorObject(error, 'operate', SILENT_DIAGNOSTICS) };
    }
  }

  resourceUri(params: JsonObject): string {
    return params.uri as string;
  }

  canRead(): boolean {
    return true;
  }

  readRefusal(): Error | undefined {
    return undefined;
  }
}

/** Tools most specs use: one that waits to be cancelled, one that asks the client to sample. */
export const TOOLS: Record<string, FakeTool> = {
  wait: (ctx) => new Promise((resolve) => ctx.signal.addEventListener('abort', () => resolve({ content: [] }))),
  sample: async (ctx, _params, router) => {
    const asked = ctx.sample({ messages: [] });
    router.asked.push(asked);
    return { answer: await asked };
  },
  echo: async (_ctx, params) => ({ echoed: params.arguments ?? {} }),
  /** Answers at once, with no promise: the call path makes none either when nothing else waits. */
  now: (_ctx, params) => ({ echoed: params.arguments ?? {} }),
};

/** One node's protocol pieces, on a store and bus that specs may share between nodes. */
export interface Node {
  readonly engine: SessionEngine;
  readonly events: ServerEvents;
  readonly running: RunningRequests;
  readonly router: FakeRouter;
  readonly tasks: TaskService;
}

export function node(parts: { store: SessionStore; bus?: SessionBus; tools?: Record<string, FakeTool>; options?: SessionEngineOptions; listChanges?: (listener: (kind: ListKind) => void) => () => void; diagnostics?: Diagnostics }): Node {
  const diagnostics = parts.diagnostics ?? SILENT_DIAGNOSTICS;
  const bus = parts.bus ?? new InProcessSessionBus();
  const running = new RunningRequests();
  const router = new FakeRouter(parts.tools ?? TOOLS);
  const events = new ServerEvents({
    bus, store: parts.store, canRead: () => true, onListChanged: parts.listChanges ?? (() => () => {}), diagnostics,
  });
  const tasks = new TaskService({ store: new InMemoryTaskStore(), bus, diagnostics, limits: taskLimits() });
  const engine = new SessionEngine({
    router, identity: { info: { name: 'fake', version: '1' } }, counts: () => ({ tools: 1, prompts: 0, resources: 0, taskTools: 0 }),
    diagnostics, events, store: parts.store, bus, running, clock: new FakeClock().read, tasks, toolTaskSupport: () => 'forbidden', visibility: EVERY_TOOL_VISIBLE,
  }, parts.options);
  return { engine, events, running, router, tasks };
}

/** Every tool visible to everyone, with a schema that asks for no header. */
export const EVERY_TOOL_VISIBLE: ToolVisibility = { tool: () => ({ descriptor: { inputSchema: { type: 'object' } } }) as unknown as ToolDefinition };

export const CLIENT = Object.freeze({ name: 'client', version: '1' });

export function initializeRequest(id: RequestId = 0, capabilities: JsonObject = { sampling: {} }): JsonRpcRequest {
  return { jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities, clientInfo: CLIENT } };
}

/** A session made by `initialize` on `engine`. */
export async function session(engine: SessionEngine, principal?: unknown): Promise<SessionState> {
  const { state } = await engine.initialize(initializeRequest(), principal);
  if (!state) throw new Error('initialize failed');
  return state;
}

export function call(id: RequestId, name: string, extra: JsonObject = {}): JsonRpcRequest {
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name, ...extra } };
}

export function way(exchange: Exchange = new FakeExchange()) {
  return { exchange, cancellation: new Cancellation() };
}

/** What a promise came to by the time everything already queued has run: its value, its error, or still waiting. */
export async function settledNow<T>(promise: Promise<T>): Promise<{ value: T } | { error: unknown } | 'waiting'> {
  const marker = Symbol('waiting');
  const outcome = await Promise.race([
    promise.then((value) => ({ value }), (error: unknown) => ({ error })),
    new Promise<typeof marker>((resolve) => setImmediate(() => resolve(marker))),
  ]);
  return outcome === marker ? 'waiting' : outcome as { value: T } | { error: unknown };
}

/** Lets queued callbacks run (the bus delivers in-process, the store answers at once). */
export function flush(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** An arrival as a transport would make it: it records the ways it opens. */
export class FakeArrival implements Arrival {
  readonly opened: Array<{ kind: InFlightKind; sessionId?: string; id: RequestId | null; way: InFlight & { exchange: FakeExchange } }> = [];
  accepting = true;
  readonly checked: Array<JsonObject | undefined> = [];

  constructor(readonly facts: Partial<Pick<Arrival, 'principal' | 'sessionId' | 'versionHeader' | 'binding'>> & { headers?: boolean } = {}) {}

  get principal() { return this.facts.principal; }
  get sessionId() { return this.facts.sessionId; }
  get versionHeader() { return this.facts.versionHeader; }
  get binding() { return this.facts.binding; }

  get checkHeaders() {
    if (!this.facts.headers) return undefined;
    return (_message: JsonRpcRequest, _meta: unknown, schema: JsonObject | undefined) => {
      this.checked.push(schema);
      return undefined;
    };
  }

  open(kind: InFlightKind, sessionId: string | undefined, id: RequestId | null) {
    if (!this.accepting) return undefined;
    const opened = { exchange: new FakeExchange(), cancellation: new Cancellation() };
    this.opened.push({ kind, sessionId, id, way: opened });
    return opened;
  }

  /** The way opened last. */
  get way() {
    return this.opened[this.opened.length - 1]?.way;
  }
}
