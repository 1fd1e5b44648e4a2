import type { SessionState } from './session-state';

/**
 * Where sessions live. Callers change a loaded state only to `save` it right after, so a store
 * may hand out copies (Redis) or its own object (memory) without a difference anyone can see.
 */
export interface SessionStore {
  load(id: string): Promise<SessionState | undefined>;
  save(state: SessionState): Promise<void>;
  delete(id: string): Promise<boolean>;
  /** Marks the session active now, postponing its expiry. */
  touch(id: string): Promise<void>;
  /** Ids of sessions subscribed to `uri`. */
  subscribers(uri: string): Promise<string[]>;
  /** How many live sessions the store holds, expired ones not counted (`maxSessions` is checked against it). */
  count(): Promise<number>;
  /** Stops background work (expiry timers). */
  close(): Promise<void>;
}

/** How long a session may sit idle before it expires, unless `sessionIdleMs` says otherwise: 30 minutes. */
export const DEFAULT_SESSION_IDLE_MS = 30 * 60 * 1000;

/**
 * The embedded default: sessions in a Map, dropped after `idleMs` without activity. `load` hands
 * out the stored object itself (no copy on the hot path); `save` stores a copy of what it is given.
 */
export class InMemorySessionStore implements SessionStore {
  private readonly sessions = new Map<string, SessionState>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly idleMs = DEFAULT_SESSION_IDLE_MS,
    private readonly onExpire: (id: string) => void = () => {},
    /** A busy session (a request still running) never expires, however long the request takes. */
    private readonly isBusy: (id: string) => boolean = () => false,
  ) {
    this.sweeper = setInterval(() => this.sweep(), Math.max(1000, Math.min(idleMs, 60_000)));
    this.sweeper.unref();
  }

  async load(id: string): Promise<SessionState | undefined> {
    const state = this.sessions.get(id);
    if (!state) return undefined;
    if (this.idle(state, Date.now())) {
      this.expire(id);
      return undefined;
    }
    return state;
  }

  async save(state: SessionState): Promise<void> {
    if (this.sessions.get(state.id) !== state) this.sessions.set(state.id, structuredClone(state));
  }

  async delete(id: string): Promise<boolean> {
    return this.sessions.delete(id);
  }

  async touch(id: string): Promise<void> {
    const state = this.sessions.get(id);
    if (state) state.lastActiveAt = Date.now();
  }

  async subscribers(uri: string): Promise<string[]> {
    const ids: string[] = [];
    const now = Date.now();
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

  async close(): Promise<void> {
    clearInterval(this.sweeper);
  }

  get size(): number {
    return this.sessions.size;
  }

  private sweep(): void {
    const now = Date.now();
    for (const [id, state] of this.sessions) if (this.idle(state, now)) this.expire(id);
  }

  private idle(state: SessionState, now: number): boolean {
    return now - state.lastActiveAt > this.idleMs && !this.isBusy(state.id);
  }

  private expire(id: string): void {
    this.sessions.delete(id);
    this.onExpire(id);
  }
}
