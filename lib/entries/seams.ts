/**
 * `phantom-mcp/seams`: the interfaces a shared store implements (sessions, resumable event
 * streams, tasks, the bus between replicas) with their in-process defaults, for people who
 * write their own (the Redis ones are in `phantom-mcp/redis`). A store that cannot answer
 * throws `StoreUnavailableError` (from the root entry, `phantom-mcp`, where a server
 * author catches it too).
 *
 * @example
 * import type { SessionStore } from 'phantom-mcp/seams';
 *
 * @module phantom-mcp/seams
 */
export {
  InMemoryEventStore, type EventStore, type InMemoryEventStoreOptions, type StoredEvent, type StreamFollower, type StreamRef,
  type StoredStream, type StreamKind,
} from '../protocol/seams/event-store';
export { InMemorySessionStore, type InMemorySessionStoreOptions, type SessionChange, type SessionStore } from '../protocol/seams/session-store';
export type { BusSettings, SessionStoreSettings, SharedStores } from '../protocol/seams/shared-stores';
export {
  InProcessSessionBus, type BusSubscription, type ServerMessage, type SessionBus, type SessionMessage, type ServerListener, type SessionListener,
} from '../protocol/seams/session-bus';
export type { SessionState } from '../protocol/seams/session-state';
export {
  InMemoryTaskStore, isTerminal, type FinishedBound, type TaskChange, type TaskInputRequest, type TaskOutcome, type TaskPage, type TaskRecord, type TaskStatus, type TaskStore,
} from '../protocol/seams/task-store';
