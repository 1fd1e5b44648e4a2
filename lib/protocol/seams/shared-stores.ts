import type { Diagnostics } from '../../core/diagnostics';
import type { EventStore } from './event-store';
import type { SessionBus } from './session-bus';
import type { SessionStore } from './session-store';
import type { TaskStore } from './task-store';

/** What the server tells a shared backend about the sessions it builds a store for. */
export interface SessionStoreSettings {
  /** Idle time after which a session expires. */
  readonly idleMs: number;
  /** Whether this node has a request of the session running (such a session never expires). */
  readonly isBusy: (id: string) => boolean;
  /**
   * The sessions with a request running on this node. A shared store cannot ask the other nodes
   * whether a session is busy, so each node keeps its busy sessions alive itself.
   */
  readonly busySessions: () => Iterable<string>;
}

/** What the server tells a shared backend about the bus it builds. */
export interface BusSettings {
  /** Where the bus reports what it drops (messages that are not its own). */
  readonly diagnostics: Diagnostics;
}

/**
 * One backend for everything replicas share: the session store, the SSE event store, the task
 * store and the session bus, built on one set of connections (`redis()` is one). Given to the server as its
 * `store` option; the server opens it before it serves, closes it when it closes, and reports
 * it in readiness.
 */
export interface SharedStores {
  /** Connects; rejects with a clear error when the backend cannot be reached. */
  open(): Promise<void>;
  /** The session store every replica shares; the server asks for it once, with its `sessionIdleMs`. */
  sessions(settings: SessionStoreSettings): SessionStore;
  /** The SSE event store: a stream written on one node can be resumed (`Last-Event-ID`) on any other. */
  events(): EventStore;
  /** The task store: a task created on one node is polled, updated and cancelled on any. */
  tasks(): TaskStore;
  /** The bus that carries a session's messages to the node holding its stream, and server-wide messages to every node. */
  bus(settings: BusSettings): SessionBus;
  /**
   * Calls `use` with the secret every server on this backend shares, at once and again whenever
   * it changes (the backend lost it, as a Redis restarted empty does, and the servers agreed on
   * another), until the returned function is called. `open()` agrees on it first: the first
   * server to open makes it, the others read it. The server derives from it the keys of what one
   * replica hands a client and another must accept: list cursors, the stateless era's requestState.
   */
  onSecret(use: (secret: Buffer) => void): () => void;
  /** Whether the backend answers now (readiness). */
  ready(): Promise<boolean>;
  /** Closes the connections; the server calls it as it closes, after the stores built from it are closed. */
  close(): Promise<void>;
}
