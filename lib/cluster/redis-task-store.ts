import { KeyedQueue } from './keyed-queue';
import { PhantomError } from '../core/errors';
import { isTerminal, type FinishedBound, type TaskChange, type TaskPage, type TaskRecord, type TaskStore } from '../protocol/seams/task-store';
import { viaRedis } from './redis-failure';
import type { RedisLink } from './redis-link';
import { DEFAULT_MAX_UPDATE_ATTEMPTS } from './redis-session-store';
import { COMMIT, CREATE, KEEP_FINISHED, READ_MANY } from './redis-task-scripts';

/** Options of the Redis task store (`maxAbandonedPerCall` and `maxUpdateAttempts` are options of `redis()`). */
export interface RedisTaskStoreOptions {
  /** The clock a task's ttl is measured on (default `Date.now`; specs pass a fake one). Every node's should agree. */
  readonly now?: () => number;
  /** Tries of one change against concurrent changes made on other nodes before it fails (default `DEFAULT_MAX_UPDATE_ATTEMPTS`, 32, as for sessions). */
  readonly maxUpdateAttempts?: number;
  /**
   * The most tasks one `abandoned` call gives (default `DEFAULT_MAX_ABANDONED_PER_CALL`, 100):
   * the server fails those, and finds the rest on its next look.
   */
  readonly maxAbandonedPerCall?: number;
}

/** The most abandoned tasks one look gives: 100. */
export const DEFAULT_MAX_ABANDONED_PER_CALL = 100;

/** Task ids one list read takes per round trip, whatever the caller's page size. */
const READ_PAGE = 100;

/** A task as read: the record, and the version a write must still find. */
interface Stored {
  readonly task: TaskRecord;
  readonly version: string;
}

/**
 * Tasks in Redis, shared by every node: a task created on one is read, updated and cancelled on
 * any. The keys and the atomic steps are described in `redis-task-scripts.ts`: each task is a
 * hash Redis drops at `createdAt + ttlMs`, and three sorted sets (the owner's tasks in creation
 * order, the owner's running tasks, the leases) change in the same step as the task, so that
 * `create` counts the running tasks and stores the new one at once, and `abandoned` reads only
 * what it needs. A task past its ttl on this node's clock is gone here too, even before Redis
 * dropped it.
 *
 * Every change is a compare-and-set on the task's version in a Lua script: a change that lost the
 * race to another node runs again on the fresher record, up to `maxUpdateAttempts` times.
 * Changes made on this node wait for each other, so they never race. While Redis is unreachable
 * every method rejects with a `redis_unavailable` error; once it is back, the next call works.
 */
export class RedisTaskStore implements TaskStore {
  private readonly now: () => number;
  private readonly maxUpdateAttempts: number;
  private readonly maxAbandonedPerCall: number;
  /** The change of each task under way on this node, which the next one waits for. */
  private readonly queues = new KeyedQueue();
  private readonly leasesKey: string;
  private readonly seqKey: string;

  /** Made by {@link redis}, on the connections it shares between the stores and the bus. @hidden */
  constructor(private readonly connections: Pick<RedisLink, 'commands' | 'prefix'>, options: RedisTaskStoreOptions = {}) {
    this.now = options.now ?? Date.now;
    this.maxUpdateAttempts = positive('maxUpdateAttempts', options.maxUpdateAttempts ?? DEFAULT_MAX_UPDATE_ATTEMPTS);
    this.maxAbandonedPerCall = positive('maxAbandonedPerCall', options.maxAbandonedPerCall ?? DEFAULT_MAX_ABANDONED_PER_CALL);
    this.leasesKey = `${connections.prefix}{tasks}:leases`;
    this.seqKey = `${connections.prefix}{tasks}:seq`;
  }

  async create(task: TaskRecord, maxActive: number): Promise<boolean> {
    const created = await viaRedis('Creating a task', () => CREATE.run(this.connections.commands, [
      this.taskKey(task.id), this.ownedKey(task.owner), this.runningKey(task.owner), this.leasesKey, this.seqKey,
    ], [task.id, JSON.stringify(task), expiryOf(task), this.now(), maxActive, isTerminal(task.status) ? '0' : '1', leaseOf(task)]));
    if (created === -1) throw new PhantomError('task_exists', `A task with id ${task.id} exists already`);
    return created === 1;
  }

  async get(id: string): Promise<TaskRecord | undefined> {
    return (await this.read(id))?.task;
  }

  async update(id: string, change: TaskChange): Promise<TaskRecord | undefined> {
    return this.queues.run(id, async () => {
      for (let attempt = 1; attempt <= this.maxUpdateAttempts; attempt += 1) {
        const current = await this.read(id);
        if (!current) return undefined;
        const next = change(current.task);
        if (next === undefined) return current.task;
        if (next.id !== id || next.owner !== current.task.owner) {
          throw new PhantomError('task_identity_changed', `A task change may not change its id or owner (task ${id})`);
        }
        if (await this.commit(current, next)) return next;
        // Another node changed it first: a moment's random pause keeps two nodes out of lockstep.
        await pause(Math.random() * Math.min(attempt, 10));
      }
      throw new PhantomError('task_update_conflict', `Task ${id} was changed on other nodes ${this.maxUpdateAttempts} times while this one tried to change it; gave up`);
    });
  }

  async list(owner: string, cursor: string | undefined, limit: number): Promise<TaskPage | undefined> {
    // A page holds at least one task, so that a caller paging on always gets somewhere.
    const size = limit >= 1 ? Math.floor(limit) : 1;
    const key = this.ownedKey(owner);
    let after = '-inf';
    if (cursor !== undefined) {
      const score = await viaRedis('Reading a task cursor', () => this.connections.commands.zscore(key, cursor));
      if (score === null) return undefined;
      after = `(${score}`;
    }
    const tasks: TaskRecord[] = [];
    // One task past the page says whether there is a next one.
    for (;;) {
      const want = Math.min(size + 1 - tasks.length, READ_PAGE);
      const range = await viaRedis('Listing tasks', () => this.connections.commands.zrangebyscore(key, after, '+inf', 'WITHSCORES', 'LIMIT', 0, want));
      const ids = range.filter((_, i) => i % 2 === 0);
      if (ids.length === 0) break;
      after = `(${range[range.length - 1]}`;
      for (const task of await this.readMany(key, ids)) {
        if (tasks.length === size) return { tasks, nextCursor: tasks[size - 1].id };
        tasks.push(task);
      }
      if (ids.length < want) break;
    }
    return { tasks };
  }

  async abandoned(now: number): Promise<readonly TaskRecord[]> {
    const ids = await viaRedis('Looking for abandoned tasks', () =>
      this.connections.commands.zrangebyscore(this.leasesKey, '-inf', `(${now}`, 'LIMIT', 0, this.maxAbandonedPerCall));
    const tasks = await this.readMany(this.leasesKey, ids);
    return tasks.filter((task) => !isTerminal(task.status) && task.leaseUntil !== undefined && task.leaseUntil < now);
  }

  async keepFinished(task: TaskRecord, bytes: number, bound: FinishedBound): Promise<readonly string[]> {
    const dropped = await viaRedis('Counting a finished task', () => KEEP_FINISHED.run(this.connections.commands, [
      this.ownerKey('finished', task.owner), this.ownerKey('sizes', task.owner), this.seqKey,
    ], [task.id, Math.max(0, Math.ceil(bytes)), expiryOf(task), this.now(), bound.count, bound.bytes]));
    return dropped as string[];
  }

  /** Nothing runs in the background; the connections stay open for their owner to close. */
  async close(): Promise<void> {
    await this.queues.drained();
  }

  private async read(id: string): Promise<Stored | undefined> {
    const [json, version] = await viaRedis('Reading a task', () => this.connections.commands.hmget(this.taskKey(id), 'json', 'v'));
    if (json === null || version === null) return undefined;
    const task = JSON.parse(json) as TaskRecord;
    return this.expired(task) ? undefined : { task, version };
  }

  /** The live tasks of `ids`, in order; the ids of tasks Redis dropped leave `index`. */
  private async readMany(index: string, ids: readonly string[]): Promise<TaskRecord[]> {
    if (ids.length === 0) return [];
    const found = await viaRedis('Reading tasks', () => READ_MANY.run(this.connections.commands, ids.map((id) => this.taskKey(id)), [])) as Array<string | null>;
    const gone = ids.filter((_, i) => found[i] === null);
    // An id is never used again, so pruning apart from the read cannot remove a task created since.
    if (gone.length > 0) await viaRedis('Pruning dropped tasks', () => this.connections.commands.zrem(index, ...gone));
    return found.filter((json): json is string => json !== null).map((json) => JSON.parse(json) as TaskRecord).filter((task) => !this.expired(task));
  }

  private async commit(current: Stored, next: TaskRecord): Promise<boolean> {
    const written = await viaRedis('Writing a task', () => COMMIT.run(this.connections.commands, [
      this.taskKey(next.id), this.ownedKey(next.owner), this.runningKey(next.owner), this.leasesKey,
    ], [next.id, current.version, JSON.stringify(next), expiryOf(next), isTerminal(next.status) ? '0' : '1', leaseOf(next)]));
    return written === 1;
  }

  private expired(task: TaskRecord): boolean {
    return this.now() >= expiryOf(task);
  }


  private taskKey(id: string): string {
    return `${this.connections.prefix}{tasks}:task:${id}`;
  }

  private ownedKey(owner: string): string {
    return `${this.connections.prefix}{tasks}:owner:${owner}`;
  }

  private ownerKey(kind: 'finished' | 'sizes', owner: string): string {
    return `${this.connections.prefix}{tasks}:${kind}:${owner}`;
  }

  private runningKey(owner: string): string {
    return `${this.connections.prefix}{tasks}:running:${owner}`;
  }
}

/** When the task is dropped, whatever its status. */
function expiryOf(task: TaskRecord): number {
  return task.createdAt + task.ttlMs;
}

function leaseOf(task: TaskRecord): number | string {
  return task.leaseUntil ?? '';
}

function positive(name: string, value: number): number {
  if (!(value > 0) || !Number.isFinite(value)) throw new PhantomError('invalid_option', `RedisTaskStore: ${name} must be a positive number (got ${value})`);
  return value;
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
