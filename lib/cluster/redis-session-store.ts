import { KeyedQueue } from './keyed-queue';
import { PhantomError } from '../core/errors';
import { uniqueId } from '../core/unique-id';
import type { SessionState } from '../protocol/seams/session-state';
import type { SessionChange, SessionStore } from '../protocol/seams/session-store';
import type { SessionStoreSettings } from '../protocol/seams/shared-stores';
import { viaRedis } from './redis-failure';
import type { RedisLink } from './redis-link';
import { COMMIT, EXPIRE, READ, SUBSCRIBERS, TOUCH } from './redis-session-scripts';
import { SessionStateCache } from './session-state-cache';

export interface RedisSessionStoreOptions extends SessionStoreSettings {
  /** The clock idle time is measured on (default `Date.now`; specs pass a fake one). Every node's should agree. */
  readonly now?: () => number;
  /** How often this node looks for idle sessions to expire, in ms (default `idleMs`, kept within 1 s..60 s). */
  readonly sweepIntervalMs?: number;
  /**
   * A session touched on this node less than this long ago is not touched again (default a
   * tenth of `idleMs`, at most 1 s): a session-era call then costs Redis one script, not two,
   * and a session may expire up to this much earlier than `idleMs` after its last activity.
   */
  readonly touchIntervalMs?: number;
  /** Tries of one change against concurrent changes made on other nodes before it fails (default `DEFAULT_MAX_UPDATE_ATTEMPTS`). */
  readonly maxUpdateAttempts?: number;
}

/** How many times an update is tried while other nodes keep changing the session first: 32. */
export const DEFAULT_MAX_UPDATE_ATTEMPTS = 32;

/** Idle sessions one sweep reads per round trip. */
const SWEEP_PAGE = 100;
/** A cutoff above every lastActiveAt: a session whose state Redis already dropped expires whatever its activity. */
const ANY_TIME = Number.MAX_SAFE_INTEGER;

interface Stored {
  /** The state as stored (JSON without lastActiveAt), undefined when Redis holds none. */
  readonly json?: string;
  /** From the activity index, undefined when the session is not (or no more) in it. */
  readonly lastActiveAt?: number;
}

/**
 * Sessions in Redis, shared by every node of a deployment. Under the key prefix `P`:
 *
 * - `P{sessions}:session:<id>`: the state as JSON (without `lastActiveAt`), with a Redis TTL of
 *   `idleMs` plus two sweep intervals, refreshed by every write and touch, so Redis frees what
 *   nobody uses even when no node is left to sweep;
 * - `P{sessions}:active`: a sorted set of session ids scored by `lastActiveAt` (the one place it
 *   is kept), from which `count` and the sweep read without scanning keys;
 * - `P{sessions}:subscribers:<uri>`: the ids of the sessions subscribed to `uri`, changed in the
 *   same atomic step as the session, emptied (so gone) as those sessions end;
 * - channel `Psessions:expired`: `<node> <session id>` for each expiry, heard by every node.
 *
 * (`{sessions}` is a hash tag: on Redis Cluster the keys that one step touches share a slot.)
 *
 * A session is idle when `now() - lastActiveAt > idleMs` and this node has no request of it
 * running. Each node expires idle sessions in a sweep every `sweepIntervalMs` and whenever it
 * finds one idle or dropped by Redis on `load`/`update`/`count`; the node whose step removes it
 * from the index tells the others, so every node's `onExpired` listeners hear it once. A session
 * busy on any node never expires: each node touches the sessions it has requests of running every
 * `idleMs / 3` (a heartbeat: two may be missed before another node could see the session idle).
 *
 * Every change is a compare-and-set in a Lua script (WATCH would need a connection per update):
 * a change that lost the race to another node is run again on the fresher state, up to
 * `maxUpdateAttempts` times. Changes made on this node wait for each other, so they never race.
 *
 * While Redis is unreachable every method rejects with a `redis_unavailable` error and the
 * timers skip their turn; once it is back, the next call works.
 */
export class RedisSessionStore implements SessionStore {
  /** Names this store in its expiry messages, so that it does not hear its own twice. */
  private readonly node = uniqueId();
  private readonly expiredListeners = new Set<(id: string) => void>();
  /** The change of each session under way on this node, which the next one waits for. */
  private readonly queues = new KeyedQueue();
  private readonly idleMs: number;
  private readonly ttlMs: number;
  private readonly touchIntervalMs: number;
  /** When this node last touched each session it touched within `touchIntervalMs` (pruned by the sweep). */
  private readonly touchedAt = new Map<string, number>();
  /** What this node last parsed of each session it read, so that an unchanged session is not parsed again. */
  private readonly states = new SessionStateCache();
  private readonly maxUpdateAttempts: number;
  private readonly now: () => number;
  private readonly isBusy: (id: string) => boolean;
  private readonly busySessions: () => Iterable<string>;
  private readonly index: string;
  private readonly channel: string;
  private readonly sweeper: NodeJS.Timeout;
  private readonly heartbeat: NodeJS.Timeout;
  private sweeping?: Promise<void>;
  private subscription?: Promise<void>;
  private stopListening?: () => Promise<void>;
  private closed = false;

  /** Made by {@link redis}, on the connections it shares between the stores and the bus. @hidden */
  constructor(private readonly connections: RedisLink, options: RedisSessionStoreOptions) {
    this.idleMs = positive('idleMs', options.idleMs);
    const sweepIntervalMs = positive('sweepIntervalMs', options.sweepIntervalMs ?? Math.max(1000, Math.min(this.idleMs, 60_000)));
    // Long enough for a running node's sweep to find an idle session (and tell every node)
    // before Redis frees it.
    this.ttlMs = Math.ceil(this.idleMs + 2 * sweepIntervalMs);
    this.touchIntervalMs = Math.max(0, options.touchIntervalMs ?? Math.min(1000, this.idleMs / 10));
    this.maxUpdateAttempts = positive('maxUpdateAttempts', options.maxUpdateAttempts ?? DEFAULT_MAX_UPDATE_ATTEMPTS);
    this.now = options.now ?? Date.now;
    this.isBusy = options.isBusy;
    this.busySessions = options.busySessions;
    this.index = `${connections.prefix}{sessions}:active`;
    this.channel = `${connections.prefix}sessions:expired`;
    this.sweeper = setInterval(() => this.sweepInBackground(), sweepIntervalMs);
    this.sweeper.unref();
    this.heartbeat = setInterval(() => void this.keepBusySessionsAlive(), this.idleMs / 3);
    this.heartbeat.unref();
    this.listen();
  }

  /** Resolves once this store hears the expiries other nodes find; rejects when Redis refused (the sweep tries again). */
  listening(): Promise<void> {
    return this.listen();
  }

  async load(id: string): Promise<SessionState | undefined> {
    return (await this.live(id))?.state;
  }

  async save(state: SessionState): Promise<void> {
    await this.queues.run(state.id, async () => {
      for (let attempt = 1; attempt <= this.maxUpdateAttempts; attempt += 1) {
        const stored = await this.read(state.id);
        if (await this.commit(state.id, stored.json, state, state.lastActiveAt)) return;
      }
      throw this.conflict(state.id);
    });
  }

  async update(id: string, change: SessionChange): Promise<SessionState | undefined> {
    return this.queues.run(id, async () => {
      for (let attempt = 1; attempt <= this.maxUpdateAttempts; attempt += 1) {
        const current = await this.live(id);
        if (!current) return undefined;
        const next = change(current.state);
        if (next === undefined) return current.state;
        if (next.id !== id) throw new PhantomError('session_id_changed', `A session change may not change its id (${id} became ${next.id})`);
        if (await this.commit(id, current.json, next, undefined)) return next;
        // Another node changed it first: a moment's random pause keeps two nodes out of lockstep.
        await pause(Math.random() * Math.min(attempt, 10));
      }
      throw this.conflict(id);
    });
  }

  async delete(id: string): Promise<boolean> {
    this.touchedAt.delete(id);
    this.states.forget(id);
    return this.queues.run(id, async () => {
      for (let attempt = 1; attempt <= this.maxUpdateAttempts; attempt += 1) {
        const stored = await this.read(id);
        if (stored.json === undefined && stored.lastActiveAt === undefined) return false;
        if (await this.commit(id, stored.json, undefined, undefined)) return stored.json !== undefined;
      }
      throw this.conflict(id);
    });
  }

  async touch(id: string): Promise<void> {
    const now = this.now();
    const last = this.touchedAt.get(id);
    if (last !== undefined && now - last < this.touchIntervalMs) return;
    this.touchedAt.set(id, now);
    try {
      await viaRedis('Marking a session active', () => TOUCH.run(this.connections.commands, [this.sessionKey(id), this.index], [id, now, this.ttlMs]));
    } catch (error) {
      this.touchedAt.delete(id);
      throw error;
    }
  }

  async subscribers(uri: string): Promise<string[]> {
    const found = await viaRedis('Reading the subscribers of a resource', () =>
      SUBSCRIBERS.run(this.connections.commands, [this.subscribersKey(uri), this.index], [])) as string[];
    const now = this.now();
    const ids: string[] = [];
    for (let i = 0; i < found.length; i += 2) if (!this.idle(found[i], Number(found[i + 1]), now)) ids.push(found[i]);
    return ids;
  }

  /** Idle sessions are expired first: they are gone for their clients, so they take no slot. */
  async count(): Promise<number> {
    await this.sweep();
    return viaRedis('Counting sessions', () => this.connections.commands.zcard(this.index));
  }

  onExpired(listener: (id: string) => void): () => void {
    this.expiredListeners.add(listener);
    return () => this.expiredListeners.delete(listener);
  }

  /** Stops the timers and the expiry listener; the connections stay open for their owner to close. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.sweeper);
    clearInterval(this.heartbeat);
    await this.subscription?.catch(() => undefined);
    await this.stopListening?.();
    this.stopListening = undefined;
    await this.sweeping;
  }

  /** The stored state, unless the session is gone or idle past its lifetime (then it expires now). */
  private async live(id: string): Promise<{ state: SessionState; json: string } | undefined> {
    for (let attempt = 1; attempt <= this.maxUpdateAttempts; attempt += 1) {
      const stored = await this.read(id);
      if (stored.lastActiveAt === undefined) return undefined;
      const now = this.now();
      if (stored.json !== undefined && !this.idle(id, stored.lastActiveAt, now)) {
        return { json: stored.json, state: this.states.stateOf(id, stored.json, stored.lastActiveAt) };
      }
      if (await this.expire(id, stored, stored.json === undefined ? ANY_TIME : now - this.idleMs)) return undefined;
      // Touched, changed or expired by another node meanwhile: look again.
    }
    throw this.conflict(id);
  }

  private async read(id: string): Promise<Stored> {
    const [json, score] = await viaRedis('Reading a session', () =>
      READ.run(this.connections.commands, [this.sessionKey(id), this.index], [id])) as [string | null, string | null];
    return { json: json ?? undefined, lastActiveAt: score === null ? undefined : Number(score) };
  }

  /**
   * Writes `next` (or deletes, when undefined) if the stored JSON is still `expected`, moving the
   * session between subscriber sets by the difference; false when another change came first.
   */
  private async commit(id: string, expected: string | undefined, next: SessionState | undefined, lastActiveAt: number | undefined): Promise<boolean> {
    const before = new Set(expected === undefined ? [] : subscriptionsOf(expected));
    const after = new Set(next?.subscriptions ?? []);
    const added = [...after].filter((uri) => !before.has(uri));
    const removed = [...before].filter((uri) => !after.has(uri));
    const keys = [this.sessionKey(id), this.index, ...added.map((uri) => this.subscribersKey(uri)), ...removed.map((uri) => this.subscribersKey(uri))];
    const written = await viaRedis('Writing a session', () => COMMIT.run(this.connections.commands, keys, [
      id, expected ?? '', next === undefined ? '' : encode(next), lastActiveAt ?? '', this.ttlMs, added.length,
    ]));
    return written === 1;
  }

  /** Expires the session if it is still as read and idle before `cutoff`; true when this node did (and told the others). */
  private async expire(id: string, stored: Stored, cutoff: number): Promise<boolean> {
    const subscriptions = stored.json === undefined ? [] : [...new Set(subscriptionsOf(stored.json))];
    const keys = [this.sessionKey(id), this.index, ...subscriptions.map((uri) => this.subscribersKey(uri))];
    const expired = await viaRedis('Expiring a session', () =>
      EXPIRE.run(this.connections.commands, keys, [id, stored.json ?? '', cutoff, this.channel, `${this.node} ${id}`]));
    if (expired !== 1) return false;
    this.raise(id);
    return true;
  }

  /** Expires every idle session that is not busy here, a page at a time. */
  private async sweep(): Promise<void> {
    const now = this.now();
    for (const [id, at] of this.touchedAt) if (now - at >= this.touchIntervalMs) this.touchedAt.delete(id);
    const cutoff = this.now() - this.idleMs;
    // Sessions of the range that stay (busy here, or changed meanwhile) are skipped by offset.
    let kept = 0;
    for (;;) {
      const ids = await viaRedis('Looking for idle sessions', () =>
        this.connections.commands.zrangebyscore(this.index, '-inf', `(${cutoff}`, 'LIMIT', kept, SWEEP_PAGE));
      for (const id of ids) {
        if (this.isBusy(id) || !(await this.expireIfIdle(id, cutoff))) kept += 1;
      }
      if (ids.length < SWEEP_PAGE || this.closed) return;
    }
  }

  private async expireIfIdle(id: string, cutoff: number): Promise<boolean> {
    const stored = await this.read(id);
    if (stored.lastActiveAt === undefined) return true;
    if (stored.json !== undefined && stored.lastActiveAt >= cutoff) return false;
    return this.expire(id, stored, stored.json === undefined ? ANY_TIME : cutoff);
  }

  private sweepInBackground(): void {
    void this.listen().catch(() => undefined);
    // Redis away: the next turn sweeps.
    this.sweeping ??= this.sweep().catch(() => undefined).finally(() => { this.sweeping = undefined; });
  }

  /** The heartbeat: this node's busy sessions are active, whatever the other nodes see of them. */
  private async keepBusySessionsAlive(): Promise<void> {
    await Promise.all([...this.busySessions()].map((id) => this.touch(id).catch(() => undefined)));
  }

  /** Subscribes to the expiry channel unless subscribed or on the way; a failed try is retried by the next sweep. */
  private listen(): Promise<void> {
    if (this.stopListening || this.closed) return Promise.resolve();
    this.subscription ??= (async () => {
      try {
        const stop = await this.connections.channels.listen(this.channel, (message) => this.heard(message));
        if (this.closed) await stop();
        else this.stopListening = stop;
      } finally {
        this.subscription = undefined;
      }
    })();
    const subscription = this.subscription;
    subscription.catch(() => undefined);
    return subscription;
  }

  private heard(message: string): void {
    const space = message.indexOf(' ');
    if (space <= 0 || message.slice(0, space) === this.node) return;
    this.raise(message.slice(space + 1));
  }

  private raise(id: string): void {
    this.states.forget(id);
    for (const listener of [...this.expiredListeners]) {
      try {
        listener(id);
      } catch {
        // A listener reports its own failures; the others still hear the expiry.
      }
    }
  }

  private idle(id: string, lastActiveAt: number, now: number): boolean {
    return now - lastActiveAt > this.idleMs && !this.isBusy(id);
  }


  private conflict(id: string): PhantomError {
    return new PhantomError('session_update_conflict', `Session ${id} was changed on other nodes ${this.maxUpdateAttempts} times while this one tried to change it; gave up`);
  }

  private sessionKey(id: string): string {
    return `${this.connections.prefix}{sessions}:session:${id}`;
  }

  private subscribersKey(uri: string): string {
    return `${this.connections.prefix}{sessions}:subscribers:${uri}`;
  }
}

/** The state as stored: lastActiveAt lives in the activity index only, so a touch never conflicts with a change. */
function encode(state: SessionState): string {
  const { lastActiveAt, ...stored } = state;
  void lastActiveAt;
  return JSON.stringify(stored);
}

function subscriptionsOf(json: string): readonly string[] {
  return (JSON.parse(json) as Pick<SessionState, 'subscriptions'>).subscriptions ?? [];
}

function positive(name: string, value: number): number {
  if (!(value > 0) || !Number.isFinite(value)) throw new PhantomError('invalid_option', `RedisSessionStore: ${name} must be a positive number of ms or tries (got ${value})`);
  return value;
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
