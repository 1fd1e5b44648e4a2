import type { Diagnostics } from '../core/diagnostics';
import type { SigningKey } from '../core/signing-key';
import { DEFAULT_MAX_JSON_DEPTH } from '../core/jsonrpc';
import { DEFAULT_MAX_HEAP_USED_RATIO, HeapGuard } from '../protocol/heap-guard';
import type { Registry } from '../router/registry';
import type { Router } from '../router/router';
import type { VisibilityResolver } from '../router/visibility';
import { toolVisibility } from '../router/extensions/tool-visibility';
import type { ExtensionSet } from '../router/extensions/extension-set';
import type { Negotiation } from '../router/extensions/extension';
import { Dispatcher } from '../protocol/dispatcher';
import { MethodTable } from '../protocol/method-table';
import type { ProtocolMethods } from '../protocol/era-methods';
import { ServerEvents } from '../protocol/events/server-events';
import { InProcessSessionBus, type SessionBus } from '../protocol/seams/session-bus';
import { RunningRequests } from '../protocol/running-requests';
import type { ServerIdentity } from '../protocol/server-identity';
import { SessionEngine } from '../protocol/session-era/session-engine';
import { DEFAULT_SESSION_IDLE_MS, InMemorySessionStore, type SessionStore } from '../protocol/seams/session-store';
import { DEFAULT_CACHE, StatelessEra } from '../protocol/stateless-era/stateless-era';
import type { PhantomServerOptions } from './server-options';
import { InMemoryTaskStore, type TaskStore } from '../protocol/seams/task-store';
import { taskLimits } from '../protocol/tasks/task-options';
import { TaskService } from '../protocol/tasks/task-service';

/** The protocol layer of one server, wired: what the server serves transports with, and closes. */
export interface Protocol {
  readonly dispatcher: Dispatcher;
  readonly engine: SessionEngine;
  readonly events: ServerEvents;
  /** Tasks, in both eras (the tasks extension serves them in the stateless era). */
  readonly tasks: TaskService;
  close(): Promise<void>;
}

/** What the protocol layer is made from: the compiled front half, the server's identity and options. */
export interface ProtocolParts {
  readonly registry: Registry;
  readonly router: Router;
  /** Whether an item exists and a caller may know it: the router's, shared by the tasks and the header check. */
  readonly visibility: VisibilityResolver;
  readonly identity: ServerIdentity;
  readonly diagnostics: Diagnostics;
  readonly options: PhantomServerOptions;
  /** Signs the stateless era's requestState (the server's, shared by its replicas when it has a store). */
  readonly stateKey: SigningKey;
  /** The server's extensions: what they advertise, and their methods' caching hints. */
  readonly extensions: ExtensionSet;
}

/**
 * Builds the protocol layer, each piece given what it uses: one table of running requests, the
 * session store and bus (in-process unless the options name others), server events, the session
 * era, the stateless era, and the dispatcher in front of them.
 */
export function composeProtocol({ registry, router, visibility, identity, diagnostics, options, stateKey, extensions }: ProtocolParts): Protocol {
  const advertised = extensions.size > 0 ? (negotiation: Negotiation) => extensions.advertised(negotiation) : undefined;
  const running = new RunningRequests();
  const isBusy = (id: string) => running.busy(id);
  const shared = options.store;
  const store: SessionStore = options.sessionStore
    ?? shared?.sessions({ idleMs: options.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS, isBusy, busySessions: () => running.busyScopes() })
    ?? new InMemorySessionStore({ idleMs: options.sessionIdleMs, isBusy });
  const bus: SessionBus = options.bus ?? shared?.bus({ diagnostics }) ?? new InProcessSessionBus();
  const counts = () => registry.counts;
  const taskStore: TaskStore = options.taskStore ?? shared?.tasks() ?? new InMemoryTaskStore();
  const tasks = new TaskService({ store: taskStore, bus, diagnostics, limits: taskLimits(options.tasks) });
  const toolTaskSupport = (name: string) => registry.tool(name)?.taskSupport;
  const events = new ServerEvents({
    bus,
    store,
    canRead: (uri, principal) => router.canRead(uri, principal),
    onListChanged: (listener) => registry.onChange(listener),
    diagnostics,
  });
  // One method table for both eras: the router's methods, and each era's own, registered by it.
  const methods: ProtocolMethods = new MethodTable((method) => router.handles(method));
  // What the protocol asks of a tool: the visible rule, then the extensions' tool hooks, as tools/list and tools/call do.
  const tools = toolVisibility(visibility, extensions.toolKnown());
  const engine = new SessionEngine({ router, identity, counts, diagnostics, events, store, bus, running, tasks, toolTaskSupport, visibility: tools, advertised, methods }, {
    sessionIdleMs: options.sessionIdleMs,
    maxSessions: options.maxSessions,
    requestTimeoutMs: options.requestTimeoutMs,
    maxInFlightPerSession: options.maxInFlightPerSession,
    maxSubscriptionsPerSession: options.maxSubscriptionsPerSession,
    maxPendingBytesPerSession: options.maxPendingBytesPerSession,
    warningRateLimit: options.warningRateLimit,
  });
  const stateless = new StatelessEra({
    router,
    identity,
    counts,
    hints: registry,
    listeners: events.listeners,
    resourceUpdated: (uri) => events.resourceUpdated(uri),
    toolTaskSupport,
    visibility: tools,
    advertised,
    methodCacheHint: extensions.size > 0 ? (method) => router.methodCacheHint(method) : undefined,
    listenIds: (asked, negotiation) => extensions.listenIds(asked, negotiation),
    backgroundCall: (call) => extensions.backgroundCall(call),
    methods,
  }, {
    stateKey,
    stateTtlMs: options.stateTtlMs,
    maxListenStreams: options.maxListenStreams,
    maxSubscriptionsPerStream: options.maxSubscriptionsPerSession,
    // Lists differ by caller once a visibility rule is set, or by client once an extension's tool
    // hook may hide or dress a tool: they can only be private then.
    cache: { ...DEFAULT_CACHE, listsArePrivate: visibility.differsByCaller || extensions.hasToolHooks, ...options.cacheDefaults },
  });
  const heap = new HeapGuard(options.maxHeapUsedRatio ?? DEFAULT_MAX_HEAP_USED_RATIO);
  const dispatcher = new Dispatcher({ engine, stateless, store, running, diagnostics, maxJsonDepth: options.maxJsonDepth ?? DEFAULT_MAX_JSON_DEPTH, heap });
  return {
    dispatcher,
    engine,
    events,
    tasks,
    async close() {
      events.close();
      await engine.close();
      await tasks.close();
      await taskStore.close();
      await store.close();
      await bus.close();
      await shared?.close();
    },
  };
}
