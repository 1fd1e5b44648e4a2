import type { ErrorObject } from '../../core/error-mapper';
import type { JsonObject } from '../../core/wire.types';

/** A task's status, as both revisions name it; the last three are terminal. */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

const TERMINAL: ReadonlySet<TaskStatus> = new Set(['completed', 'failed', 'cancelled']);

/** Whether `status` is final: a task in it never changes again. */
export function isTerminal(status: TaskStatus): boolean {
  return TERMINAL.has(status);
}

/** A request the task's handler sent the client and waits on (an elicitation, a sampling, roots). */
export interface TaskInputRequest {
  readonly method: string;
  readonly params: JsonObject;
}

/** How a task ended, when it did: the call's result, or the JSON-RPC error it would have answered. */
export type TaskOutcome = { readonly result: JsonObject } | { readonly error: ErrorObject };

/**
 * One task as it is stored: plain data (a shared store keeps its JSON), replaced whole on every
 * change. Who may see it is `owner`; nobody else learns that it exists.
 */
export interface TaskRecord {
  /** 128 random bits, hex: the only handle a client has, and unguessable. */
  readonly id: string;
  /** The caller it belongs to (`taskOwner`): a principal's identity, else the session's id, else anyone holding the id. */
  readonly owner: string;
  /** The era it was created in: how it is shown, and how its handler talks to the client. */
  readonly era: 'session' | 'stateless';
  /** Session era: the session that created it (its status notifications go there). */
  readonly sessionId?: string;
  /** The tool it runs. */
  readonly tool: string;
  readonly status: TaskStatus;
  readonly statusMessage?: string;
  /** Milliseconds since the epoch. */
  readonly createdAt: number;
  readonly lastUpdatedAt: number;
  /** How long after `createdAt` the task is kept, whatever its status (the actual ttl, after the server's cap). */
  readonly ttlMs: number;
  /** How often a client should poll it. */
  readonly pollIntervalMs: number;
  /** The node running its handler (`uniqueId()` of that process) and until when its lease holds. */
  readonly runner?: string;
  readonly leaseUntil?: number;
  /** Requests its handler waits on, by key (keys are never reused over the task's life). */
  readonly inputRequests?: Readonly<Record<string, TaskInputRequest>>;
  /** Answers the client sent that the handler has not taken yet, by key. */
  readonly inputResponses?: Readonly<Record<string, JsonObject>>;
  /** Input keys issued so far (the next key's number). */
  readonly issued?: number;
  /** Set once the task is terminal, except when it was cancelled, or when it was dropped since (`dropped`). */
  readonly outcome?: TaskOutcome;
  /** Why the task's outcome is no longer kept (its owner's finished tasks held too much); absent while it is. */
  readonly dropped?: string;
}

/** How much one owner's finished tasks may hold: outcomes kept, and their bytes. */
export interface FinishedBound {
  readonly count: number;
  readonly bytes: number;
}

/**
 * A change to one task: given the current record, the next one (a new object), or `undefined` for
 * no change. It must be synchronous and pure: a shared store may run it again on a fresher record
 * when a concurrent update won the race.
 */
export type TaskChange = (current: Readonly<TaskRecord>) => TaskRecord | undefined;

/** One page of an owner's tasks, oldest first. */
export interface TaskPage {
  readonly tasks: readonly TaskRecord[];
  /** Where the next page starts; absent on the last page. */
  readonly nextCursor?: string;
}

/**
 * Where tasks live, whichever node runs them: any node can read, update and cancel any task, and
 * every change goes through `update`, so that the runner and a client's `tasks/update` or
 * `tasks/cancel` on another node never lose each other's change. A task is dropped
 * `ttlMs` after it was created. A store may hand out copies (Redis) or its own objects (memory):
 * callers never mutate what it gave.
 */
export interface TaskStore {
  /**
   * Stores a new task, unless its owner already has `maxActive` tasks that are not terminal:
   * `false` then. Once it resolves `true`, `get` finds the task on every node.
   */
  create(task: TaskRecord, maxActive: number): Promise<boolean>;
  /** The task, or `undefined` when there is none (never created, or past its ttl). Do not mutate it. */
  get(id: string): Promise<TaskRecord | undefined>;
  /** Applies `change` atomically; the record after it, or `undefined` when the task is gone. */
  update(id: string, change: TaskChange): Promise<TaskRecord | undefined>;
  /** The owner's tasks from `cursor` on, at most `limit`; `undefined` for a cursor this store never gave. */
  list(owner: string, cursor: string | undefined, limit: number): Promise<TaskPage | undefined>;
  /** Tasks not terminal whose runner's lease ended before `now` (their node stopped renewing it). */
  abandoned(now: number): Promise<readonly TaskRecord[]>;
  /**
   * Counts `task`, which has just ended holding an outcome of `bytes`, among its owner's finished
   * tasks, and gives the ids of the oldest finished ones (in the order they finished, `task`
   * itself possibly among them) whose outcomes must go so that the owner's kept ones stay within
   * `bound`: they are no longer counted, and the caller drops their outcomes. Tasks past their
   * ttl are not counted.
   */
  keepFinished(task: TaskRecord, bytes: number, bound: FinishedBound): Promise<readonly string[]>;
  /** Stops background work. */
  close(): Promise<void>;
}

/** The embedded default: tasks in a Map, each dropped once its ttl has passed. */
export class InMemoryTaskStore implements TaskStore {
  private readonly tasks = new Map<string, TaskRecord>();
  /** Each owner's task ids, in creation order. */
  private readonly owned = new Map<string, Set<string>>();
  /** Each owner's finished tasks holding an outcome, in the order they finished, with its bytes. */
  private readonly finished = new Map<string, Map<string, number>>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly now: () => number = Date.now, sweepMs = 10_000) {
    this.sweeper = setInterval(() => this.sweep(), sweepMs);
    this.sweeper.unref();
  }

  async create(task: TaskRecord, maxActive: number): Promise<boolean> {
    this.sweep();
    const ids = this.owned.get(task.owner);
    let active = 0;
    for (const id of ids ?? []) if (!isTerminal(this.tasks.get(id)!.status)) active += 1;
    if (active >= maxActive) return false;
    this.tasks.set(task.id, { ...task });
    if (ids) ids.add(task.id);
    else this.owned.set(task.owner, new Set([task.id]));
    return true;
  }

  async get(id: string): Promise<TaskRecord | undefined> {
    return this.live(id);
  }

  async update(id: string, change: TaskChange): Promise<TaskRecord | undefined> {
    // Read, change and write with nothing awaited in between: concurrent updates never lose one.
    const task = this.live(id);
    if (!task) return undefined;
    const next = change(task);
    if (!next) return task;
    this.tasks.set(id, next);
    return next;
  }

  async list(owner: string, cursor: string | undefined, limit: number): Promise<TaskPage | undefined> {
    const ids = [...(this.owned.get(owner) ?? [])].filter((id) => !this.expired(this.tasks.get(id)!));
    let start = 0;
    if (cursor !== undefined) {
      start = ids.indexOf(cursor) + 1;
      if (start === 0) return undefined;
    }
    const page = ids.slice(start, start + limit);
    const more = start + limit < ids.length;
    return { tasks: page.map((id) => this.tasks.get(id)!), ...(more ? { nextCursor: page[page.length - 1] } : {}) };
  }

  async abandoned(now: number): Promise<readonly TaskRecord[]> {
    return [...this.tasks.values()].filter((task) => !isTerminal(task.status) && task.leaseUntil !== undefined && task.leaseUntil < now && !this.expired(task));
  }

  async keepFinished(task: TaskRecord, bytes: number, bound: FinishedBound): Promise<readonly string[]> {
    let kept = this.finished.get(task.owner);
    if (!kept) this.finished.set(task.owner, (kept = new Map()));
    kept.set(task.id, bytes);
    let count = 0;
    let total = 0;
    for (const [id, size] of kept) {
      if (this.live(id)) {
        count += 1;
        total += size;
      } else kept.delete(id);
    }
    const drop: string[] = [];
    for (const [id, size] of kept) {
      if (count <= bound.count && total <= bound.bytes) break;
      kept.delete(id);
      drop.push(id);
      count -= 1;
      total -= size;
    }
    if (kept.size === 0) this.finished.delete(task.owner);
    return drop;
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
  }

  /** Tasks in the store (for tests and leak checks), expired ones included until swept. */
  get size(): number {
    return this.tasks.size;
  }

  private live(id: string): TaskRecord | undefined {
    const task = this.tasks.get(id);
    return task && !this.expired(task) ? task : undefined;
  }

  private expired(task: TaskRecord): boolean {
    return this.now() >= task.createdAt + task.ttlMs;
  }

  private sweep(): void {
    for (const [id, task] of this.tasks) {
      if (!this.expired(task)) continue;
      this.tasks.delete(id);
      const ids = this.owned.get(task.owner);
      ids?.delete(id);
      if (ids?.size === 0) this.owned.delete(task.owner);
      const kept = this.finished.get(task.owner);
      kept?.delete(id);
      if (kept?.size === 0) this.finished.delete(task.owner);
    }
  }
}
