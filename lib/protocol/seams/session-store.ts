import type { SessionState } from './session-state';

/**
 * A change to one session: given the current state, the next one (a new object), or `undefined`
 * for no change. It must be synchronous and pure: a store shared between replicas may run it
 * again on a fresher state when a concurrent update won the race.
 */
export type SessionChange = (current: Readonly<SessionState>) => SessionState | undefined;

/**
 * Where sessions live. Every change after creation goes through `update`, so that two requests
 * of one session changing it at once (on one node or on two) never lose either change. A store
 * may hand out copies (Redis) or its own objects (memory): callers never mutate what `load` gave.
 */
export interface SessionStore {
  /** The session's state, or `undefined` when there is none (never created, deleted, or expired). Do not mutate it. */
  load(id: string): Promise<SessionState | undefined>;
  /**
   * `load`, answered at once, by a store that holds its sessions in this process (memory): every
   * request of a session loads it, and a promise costs a turn on each. A store that must wait for
   * them (Redis, a database) leaves it out, and `load` is used.
   */
  loadAtHand?(id: string): SessionState | undefined;
  /** Stores a new session (or replaces one whole). */
  save(state: SessionState): Promise<void>;
  /** Applies `change` atomically; the state after it, or `undefined` when the session is gone. */
  update(id: string, change: SessionChange): Promise<SessionState | undefined>;
  /** Removes the session (the client ended it); whether there was one. `onExpired` listeners are not told. */
  delete(id: string): Promise<boolean>;
  /** Marks the session active now, postponing its expiry (`TOUCHED` when it is done already). */
  touch(id: string): Promise<void>;
  /** Ids of sessions subscribed to `uri`. */
  subscribers(uri: string): Promise<string[]>;
  /** How many live sessions the store holds, expired ones not counted (`maxSessions` is checked against it). */
  count(): Promise<number>;
  /**
   * Hears each session that expired (idle past its lifetime) so that what a node holds of it (its
   * requests, waiters, streams) ends too; returns how to stop. A store that expires sessions by
   * itself (Redis TTLs) raises it from its keyspace events or when it finds one gone.
   */
  onExpired(listener: (id: string) => void): () => void;
  /** Stops background work (expiry timers). */
  close(): Promise<void>;
}

/**
 * What `touch` returns when it did its work at once: settled, and never rejected, so a caller need
 * not watch it (every request touches its session; a handler on a promise of its own costs two more).
 */
export const TOUCHED: Promise<void> = Promise.resolve();

/** How long a session may sit idle before it expires, unless `sessionIdleMs` says otherwise: 30 minutes. */
export const DEFAULT_SESSION_IDLE_MS = 30 * 60 * 1000;

/** Options of `InMemorySessionStore`; every one has a default. */
export interface InMemorySessionStoreOptions {
  /** Idle time after which a session expires (default `DEFAULT_SESSION_IDLE_MS`). */
  readonly idleMs?: number;
  /** A busy session (a request still running) never expires, however long the request takes. */
  readonly isBusy?: (id: string) => boolean;
  /** The clock idle time is measured on (default `Date.now`; specs pass a fake one). */
  readonly now?: () => number;
}

/**
 * The embedded default: sessions in a Map, dropped after `idleMs` without activity. `load` hands
 * out the stored object itself (no copy on the hot path); `save` stores a copy of what it is
 * given, and `update` replaces the stored object with the changed one.
 */
export class InMemorySessionStore implements SessionStore {
  private readonly sessions = new Map<string, SessionState>();
  private readonly expiredListeners = new Set<(id: string) => void>();
  private readonly sweeper: NodeJS.Timeout;
  private readonly idleMs: number;
  private readonly isBusy: (id: string) => boolean;
  private readonly now: () => number;

  constructor(options: InMemorySessionStoreOptions = {}) {
    this.idleMs = options.idleMs ?? DEFAULT_SESSION_IDLE_MS;
    this.isBusy = options.isBusy ?? (() => false);
    this.now = options.now ?? Date.now;
    this.sweeper = setInterval(() => this.sweep(), Math.max(1000, Math.min(this.idleMs, 60_000)));
    this.sweeper.unref();
  }

  async load(id: string): Promise<SessionState | undefined> {
    return this.live(id);
  }

  /** At once: the Map is at hand (see `SessionStore#loadAtHand`). */
  loadAtHand(id: string): SessionState | undefined {
    return this.live(id);
  }

  async save(state: SessionState): Promise<void> {
    if (this.sessions.get(state.id) !== state) this.sessions.set(state.id, structuredClone(state));
  }

  async update(id: string, change: SessionChange): Promise<SessionState | undefined> {
    // Read, change and write with no await between them: a concurrent update cannot slip in.
    const current = this.live(id);
    if (!current) return undefined;
    const next = change(current);
    if (next === undefined) return current;
    if (next.id !== id) throw new Error(`A session change may not change its id (${id} became ${next.id})`);
    this.sessions.set(id, next);
    return next;
  }

  async delete(id: string): Promise<boolean> {
    return this.sessions.delete(id);
  }

  touch(id: string): Promise<void> {
    // Not `live`: the protocol touches a session as its last request ends, when the clock may
    // say idle although the session was busy until now; what is still stored is still active.
    const state = this.sessions.get(id);
    if (state) state.lastActiveAt = this.now();
    return TOUCHED;
  }

  async subscribers(uri: string): Promise<string[]> {
    const ids: string[] = [];
    const now = this.now();
    for (const state of this.sessions.values()) {
      if (state.subscriptions.includes(uri) && !this.idle(state, now)) ids.push(state.id);
    }
    return ids;
  }

  /** Sessions idle past `idleMs` are expired first: they are gone for their clients, so they take no slot. */
  async count(): Promise<number> {
    this.sweep();
    return this.sessions.size;
  }

  onExpired(listener: (id: string) => void): () => void {
    this.expiredListeners.add(listener);
    return () => this.expiredListeners.delete(listener);
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
  }

  /** Sessions held now, counting idle ones the sweep has not yet removed (`count()` removes them first). */
  get size(): number {
    return this.sessions.size;
  }

  /** The stored state, unless the session is gone or idle past its lifetime (then it expires now). */
  private live(id: string): SessionState | undefined {
    const state = this.sessions.get(id);
    if (!state || !this.idle(state, this.now())) return state;
    this.expire(id);
    return undefined;
  }

  private sweep(): void {
    const now = this.now();
    for (const [id, state] of this.sessions) if (this.idle(state, now)) this.expire(id);
  }

  private idle(state: SessionState, now: number): boolean {
    return now - state.lastActiveAt > this.idleMs && !this.isBusy(state.id);
  }

  private expire(id: string): void {
    this.sessions.delete(id);
    for (const listener of [...this.expiredListeners]) listener(id);
  }
}
