import type { SessionState } from './session-state';

/**
 * Where sessions live. Implementations must treat states as values: `save` stores a copy, `load`
 * returns one, so that a Redis-backed store behaves exactly like the in-memory one.
 */
export interface SessionStore {
  load(id: string): Promise<SessionState | undefined>;
  save(state: SessionState): Promise<void>;
  delete(id: string): Promise<boolean>;
  /** Marks the session active now, postponing its expiry. */
  touch(id: string): Promise<void>;
  /** Ids of sessions subscribed to `uri`. */
  subscribers(uri: string): Promise<string[]>;
  /** Stops background work (expiry timers). */
  close(): Promise<void>;
}

/**
 * The embedded default: sessions in a Map, dropped after `idleMs` without activity.
 */
export class InMemorySessionStore implements SessionStore {
  private readonly sessions = new Map<string, SessionState>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly idleMs = 30 * 60 * 1000, private readonly onExpire: (id: string) => void = () => {}) {
    this.sweeper = setInterval(() => this.sweep(), Math.max(1000, Math.min(idleMs, 60_000)));
    this.sweeper.unref();
  }

  async load(id: string): Promise<SessionState | undefined> {
    const state = this.sessions.get(id);
    if (!state) return undefined;
    if (Date.now() - state.lastActiveAt > this.idleMs) {
      this.expire(id);
      return undefined;
    }
    return structuredClone(state);
  }

  async save(state: SessionState): Promise<void> {
    this.sessions.set(state.id, structuredClone(state));
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
    for (const state of this.sessions.values()) if (state.subscriptions.includes(uri)) ids.push(state.id);
    return ids;
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
  }

  get size(): number {
    return this.sessions.size;
  }

  private sweep(): void {
    const now = Date.now();
    for (const [id, state] of this.sessions) if (now - state.lastActiveAt > this.idleMs) this.expire(id);
  }

  private expire(id: string): void {
    this.sessions.delete(id);
    this.onExpire(id);
  }
}
