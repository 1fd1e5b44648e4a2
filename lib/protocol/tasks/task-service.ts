import { randomBytes } from 'node:crypto';
import type { ClientChannel } from '../../context/client-channel';
import type { TaskSide, TaskStarter } from '../../context/task-starter';
import { Cancellation } from '../../core/cancellation';
import type { Diagnostics } from '../../core/diagnostics';
import { ErrorCode } from '../../core/error-codes';
import type { ErrorObject } from '../../core/error-mapper';
import { PhantomError, ProtocolError } from '../../core/errors';
import { uniqueId } from '../../core/unique-id';
import type { JsonObject } from '../../core/wire.types';
import type { Outcome } from '../../router/router';
import type { SessionBus } from '../seams/session-bus';
import type { BackgroundCall } from '../../router/extensions/extension';
import { isTerminal, type FinishedBound, type TaskInputRequest, type TaskPage, type TaskRecord, type TaskStatus, type TaskStore } from '../seams/task-store';
import type { TaskLimits } from './task-options';

/** What one call that may become a task is: whose, in which era, and how its handler will talk to the client. */
export interface TaskCall {
  readonly owner: string;
  readonly era: TaskRecord['era'];
  readonly sessionId?: string;
  readonly tool: string;
  /** The ttl the client asked for, if any. */
  readonly ttlMs?: number;
  /** The way back to the client for the rest of the call, once it is the task `taskId`. */
  readonly channel: (taskId: string) => ClientChannel;
}

/**
 * A call that may become a task: the starter its context gets, the task once it is stored
 * (`running`, once the handler started it with `ctx.runAsTask`; `started` resolves then, and never
 * for a call that does not become one), and `finish`, which hands the call's outcome to its task.
 */
export type PendingTask = BackgroundCall<TaskRecord>;

/** What the task service is built from. */
export interface TaskServiceDeps {
  readonly store: TaskStore;
  readonly bus: Pick<SessionBus, 'broadcast' | 'onBroadcast'>;
  readonly diagnostics: Diagnostics;
  readonly limits: TaskLimits;
  /** Milliseconds since the epoch (a fake in specs); every node's should agree. */
  readonly clock?: () => number;
}

/** What a node knows of a task it runs. */
interface Running {
  readonly cancellation: Cancellation;
}

/** The error a task ends with when its server shut down while it ran. */
const SHUT_DOWN: ErrorObject = Object.freeze({ code: ErrorCode.InternalError, message: 'The server shut down before the task ended' });

/** The error a task ends with when the node running it stopped before it ended. */
const ABANDONED: ErrorObject = Object.freeze({ code: ErrorCode.InternalError, message: 'The server running this task stopped before the task ended' });

/**
 * Tasks, in either era: it starts them (a call's handler goes on in the background once its
 * task is stored), stores how each ends, carries the client's answers and cancellations to the
 * handler wherever they arrive, and fails tasks whose node stopped (their lease lapsed). Every
 * change is written to the task store first and then announced on the bus (`task-changed`), so
 * that a node waiting on a task, running it or notifying about it reads it again.
 */
export class TaskService {
  /** This process, as the runner of its tasks. */
  readonly node = uniqueId();
  private readonly running = new Map<string, Running>();
  /** Handlers running (or being started) on this node, by owner: they count until they end, whatever their record's ttl. */
  private readonly handlers = new Map<string, number>();
  private handlerTotal = 0;
  private readonly watchers = new Map<string, Set<() => void>>();
  private readonly changeListeners = new Set<(taskId: string) => void | Promise<void>>();
  private readonly clock: () => number;
  private readonly timers: NodeJS.Timeout[];
  private readonly stopListening: () => void;

  constructor(private readonly deps: TaskServiceDeps) {
    this.clock = deps.clock ?? Date.now;
    this.stopListening = deps.bus.onBroadcast((message) => {
      if (message.kind === 'task-changed') this.heard(message.taskId);
    });
    const { leaseMs } = deps.limits;
    this.timers = [
      setInterval(() => void this.renewLeases(), Math.max(10, Math.floor(leaseMs / 3))),
      setInterval(() => void this.failAbandoned(), Math.max(10, Math.floor(leaseMs / 2))),
    ];
    for (const timer of this.timers) timer.unref();
  }

  get limits(): TaskLimits {
    return this.deps.limits;
  }

  /** A call that may become a task: its context's starter, and what to do with its outcome once it is one. */
  begin(call: TaskCall): PendingTask {
    let resolveStarted!: (task: TaskRecord) => void;
    const started = new Promise<TaskRecord>((resolve) => (resolveStarted = resolve));
    const pending: { task?: TaskRecord } = {};
    let release = () => {};
    const starter: TaskStarter = {
      start: async (): Promise<TaskSide> => {
        release = this.reserve(call.owner);
        let task: TaskRecord;
        try {
          task = await this.create(call);
        } catch (error) {
          release();
          throw error;
        }
        const cancellation = new Cancellation();
        this.running.set(task.id, { cancellation });
        pending.task = task;
        resolveStarted(task);
        return { taskId: task.id, channel: call.channel(task.id), cancellation };
      },
    };
    return {
      starter,
      started,
      get running() {
        return pending.task;
      },
      finish: (outcome) => {
        const task = pending.task;
        if (!task) return;
        outcome
          .then((ended) => this.end(task.id, ended))
          .catch((error: unknown) => this.deps.diagnostics.error('task outcome not stored', error))
          .finally(() => {
            this.running.delete(task.id);
            release();
          });
      },
    };
  }

  /** The task `id`, if `owner` may know it. */
  async get(id: string, owner: string): Promise<TaskRecord | undefined> {
    const task = await this.deps.store.get(id);
    return task?.owner === owner ? task : undefined;
  }

  /** The task `id`, whoever owns it: for the server's own use (notifications), never for a client's request. */
  peek(id: string): Promise<TaskRecord | undefined> {
    return this.deps.store.get(id);
  }

  /** A page of the owner's tasks; `undefined` for a cursor this server never gave. */
  list(owner: string, cursor: string | undefined): Promise<TaskPage | undefined> {
    return this.deps.store.list(owner, cursor, this.deps.limits.pageSize);
  }

  /**
   * Cancels the task, unless it is terminal already: it is `cancelled` (for good) before this
   * resolves, and its handler's signal is aborted on whichever node runs it. The record after it
   * and whether it was terminal before, or `undefined` when `owner` may not know the task.
   */
  async cancel(id: string, owner: string): Promise<{ readonly task: TaskRecord; readonly wasTerminal: boolean } | undefined> {
    if (!(await this.get(id, owner))) return undefined;
    const now = this.clock();
    let cancelled = false;
    const task = await this.deps.store.update(id, (current) => {
      cancelled = !isTerminal(current.status);
      return cancelled ? ended(current, 'cancelled', now, 'The task was cancelled by request.') : undefined;
    });
    if (!task) return undefined;
    if (cancelled) {
      this.running.get(id)?.cancellation.cancel('the task was cancelled');
      await this.announce(id);
    }
    return { task, wasTerminal: !cancelled };
  }

  /**
   * The client's answers to the task's input requests: those it waits on are stored (for its
   * handler, on whichever node it runs), the rest ignored; once none is outstanding the task is
   * `working` again. The record after it, or `undefined` when `owner` may not know the task.
   * `check` says what is wrong with an answer to a request (the result's shape), if anything.
   */
  async answer(id: string, owner: string, responses: JsonObject, check: (request: TaskInputRequest, answer: unknown) => string | undefined): Promise<TaskRecord | undefined> {
    const known = await this.get(id, owner);
    if (!known) return undefined;
    for (const [key, answer] of Object.entries(responses)) {
      const request = known.inputRequests && Object.hasOwn(known.inputRequests, key) ? known.inputRequests[key] : undefined;
      const problem = request && check(request, answer);
      if (problem) throw ProtocolError.invalidParams(`inputResponses["${key}"] is not a valid ${request.method} result: ${problem}`);
    }
    const now = this.clock();
    let changed = false;
    const task = await this.deps.store.update(id, (current) => {
      changed = false;
      if (isTerminal(current.status) || !current.inputRequests) return undefined;
      const outstanding = { ...current.inputRequests };
      const answers = { ...current.inputResponses };
      for (const [key, answer] of Object.entries(responses)) {
        if (!Object.hasOwn(outstanding, key)) continue;
        delete outstanding[key];
        answers[key] = answer as JsonObject;
        changed = true;
      }
      if (!changed) return undefined;
      const waiting = Object.keys(outstanding).length > 0;
      return { ...current, status: waiting ? 'input_required' : 'working', inputRequests: waiting ? outstanding : undefined, inputResponses: answers, lastUpdatedAt: now };
    });
    if (changed) await this.announce(id);
    return task;
  }

  /**
   * Resolves once the task is terminal (the record then), or `undefined` when it is gone (expired)
   * or `owner` may not know it. Stops waiting, resolving `undefined`, when `cancellation` fires.
   */
  async whenEnded(id: string, owner: string, cancellation: Cancellation): Promise<TaskRecord | undefined> {
    for (;;) {
      const woken = this.nextChange(id, cancellation);
      const task = await this.get(id, owner);
      if (!task || isTerminal(task.status) || cancellation.aborted) {
        woken.stop();
        return cancellation.aborted ? undefined : task;
      }
      // Expiry announces nothing: the waiter looks again once the record is past its ttl.
      woken.until(expiryOf(task));
      await woken.promise;
    }
  }

  /**
   * The handler of the task asks the client for something (the stateless era: the request waits
   * in the task, for `tasks/update`): the task is `input_required` until every request is answered.
   * Resolves with the answer; rejects when the task ends or its signal fires, and with a
   * `request_timeout` error after `timeoutMs`.
   */
  async ask(id: string, method: string, params: JsonObject, options: { readonly key?: string; readonly signal: AbortSignal; readonly timeoutMs?: number }): Promise<JsonObject> {
    const key = await this.openInput(id, method, params, options.key);
    const signal = new Cancellation();
    const onAbort = () => signal.cancel(options.signal.reason);
    options.signal.addEventListener('abort', onAbort, { once: true });
    if (options.signal.aborted) onAbort();
    const timer = options.timeoutMs === undefined ? undefined : setTimeout(() => signal.cancel(TIMED_OUT), options.timeoutMs);
    try {
      for (;;) {
        const woken = this.nextChange(id, signal);
        const task = await this.deps.store.get(id);
        const answer = task?.inputResponses && Object.hasOwn(task.inputResponses, key) ? task.inputResponses[key] : undefined;
        if (answer !== undefined) {
          woken.stop();
          await this.deps.store.update(id, (current) => {
            if (!current.inputResponses || !Object.hasOwn(current.inputResponses, key)) return undefined;
            const { [key]: _taken, ...rest } = current.inputResponses;
            return { ...current, inputResponses: Object.keys(rest).length > 0 ? rest : undefined };
          });
          return answer;
        }
        if (!task || isTerminal(task.status) || signal.aborted) {
          woken.stop();
          if (signal.reason === TIMED_OUT) throw new PhantomError('request_timeout', `The client did not answer ${method} in time`);
          throw new PhantomError('task_ended', `The task ended before the client answered ${method}`);
        }
        woken.until(expiryOf(task));
        await woken.promise;
      }
    } finally {
      if (timer) clearTimeout(timer);
      options.signal.removeEventListener('abort', onAbort);
    }
  }

  /**
   * Records that the task waits on the client for `method` (`input_required`, the request shown
   * in `inputRequests` under a key never used before in this task: the handler's `key`, or the
   * method's prefix, numbered); the key.
   */
  async openInput(id: string, method: string, params: JsonObject, key?: string): Promise<string> {
    const now = this.clock();
    let made: string | undefined;
    const task = await this.deps.store.update(id, (current) => {
      if (isTerminal(current.status)) return undefined;
      const issued = (current.issued ?? 0) + 1;
      // Numbered even when the handler names it: a key is never used twice in a task's life.
      made = `${key ?? KEY_PREFIX[method] ?? 'input'}-${issued}`;
      return { ...current, status: 'input_required', issued, inputRequests: { ...current.inputRequests, [made]: { method, params } }, lastUpdatedAt: now };
    });
    if (!task || isTerminal(task.status) || made === undefined) throw new PhantomError('task_ended', `The task ended before ${method} could be asked`);
    await this.announce(id);
    return made;
  }

  /** The task no longer waits on the request `key` (answered, or given up): `working` again once none is left. */
  async closeInput(id: string, key: string): Promise<void> {
    const now = this.clock();
    const task = await this.deps.store.update(id, (current) => {
      if (isTerminal(current.status) || !current.inputRequests || !Object.hasOwn(current.inputRequests, key)) return undefined;
      const { [key]: _closed, ...rest } = current.inputRequests;
      const waiting = Object.keys(rest).length > 0;
      return { ...current, status: waiting ? 'input_required' : 'working', inputRequests: waiting ? rest : undefined, lastUpdatedAt: now };
    });
    if (task) await this.announce(id);
  }

  /** Hears each task that changed (on any node); returns how to stop. A listener's failure goes to the diagnostics. */
  onChange(listener: (taskId: string) => void | Promise<void>): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  /**
   * Stops: the tasks this node runs fail ("the server shut down"), rather than end with whatever
   * an interrupted handler returns, and their handlers' signals abort.
   */
  async close(): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    const now = this.clock();
    await Promise.all([...this.running.keys()].map(async (id) => {
      const task = await this.deps.store.update(id, (current) => isTerminal(current.status) ? undefined : { ...ended(current, 'failed', now, SHUT_DOWN.message), outcome: { error: SHUT_DOWN } })
        .catch((error: unknown) => this.deps.diagnostics.error('task not failed at shutdown', error));
      if (task?.status === 'failed') await this.announce(id);
    }));
    this.stopListening();
    for (const { cancellation } of this.running.values()) cancellation.cancel('the server is closing');
    this.running.clear();
    for (const wake of [...this.watchers.values()].flatMap((set) => [...set])) wake();
    this.watchers.clear();
  }

  /** Stores a new task for `call`, `working`, run by this node; refused when its owner has too many. */
  private async create(call: TaskCall): Promise<TaskRecord> {
    const { limits } = this.deps;
    const now = this.clock();
    const asked = call.ttlMs;
    // The server grants the ttl: within [minTtlMs, maxTtlMs] (the task shows the granted one).
    const ttlMs = asked === undefined || !Number.isFinite(asked) || asked <= 0
      ? limits.defaultTtlMs
      : Math.min(Math.max(Math.floor(asked), limits.minTtlMs), limits.maxTtlMs);
    const task: TaskRecord = {
      id: randomBytes(16).toString('hex'),
      owner: call.owner,
      era: call.era,
      ...(call.sessionId === undefined ? {} : { sessionId: call.sessionId }),
      tool: call.tool,
      status: 'working',
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs,
      pollIntervalMs: limits.pollIntervalMs,
      runner: this.node,
      leaseUntil: now + limits.leaseMs,
      issued: 0,
    };
    if (!(await this.deps.store.create(task, limits.maxActivePerOwner))) throw tooManyForOwner(limits.maxActivePerOwner);
    return task;
  }

  /**
   * Counts a handler about to run a task of `owner` on this node, or refuses it with -32010 when
   * the owner (`maxActivePerOwner`) or the node (`maxRunningPerNode`) runs too many already; the
   * function that stops counting it (once; later calls do nothing).
   */
  private reserve(owner: string): () => void {
    const { maxActivePerOwner, maxRunningPerNode } = this.deps.limits;
    const mine = this.handlers.get(owner) ?? 0;
    if (mine >= maxActivePerOwner) throw tooManyForOwner(maxActivePerOwner);
    if (this.handlerTotal >= maxRunningPerNode) {
      throw new ProtocolError(ErrorCode.TooManyRequests, `Too many tasks: this server runs at most ${maxRunningPerNode} at once; retry once one has ended`, { maxRunningTasks: maxRunningPerNode });
    }
    this.handlers.set(owner, mine + 1);
    this.handlerTotal += 1;
    let counted = true;
    return () => {
      if (!counted) return;
      counted = false;
      this.handlerTotal -= 1;
      const left = (this.handlers.get(owner) ?? 1) - 1;
      if (left > 0) this.handlers.set(owner, left);
      else this.handlers.delete(owner);
    };
  }

  /** Stores how the call ended, unless its task is terminal already (a cancelled task stays cancelled). */
  private async end(id: string, outcome: Outcome): Promise<void> {
    const now = this.clock();
    let stored = false;
    const task = await this.deps.store.update(id, (current) => {
      stored = !isTerminal(current.status);
      if (!stored) return undefined;
      if ('error' in outcome) return { ...ended(current, 'failed', now, outcome.error.message), outcome: { error: outcome.error } };
      // 2025-11-25: a tool's error result fails its task; the extension keeps `failed` for protocol errors.
      const failed = current.era === 'session' && outcome.result.isError === true;
      return { ...ended(current, failed ? 'failed' : 'completed', now, failed ? 'The tool reported an error' : undefined), outcome: { result: outcome.result } };
    });
    if (!task) return;
    await this.announce(id);
    if (stored && task.outcome) await this.keepFinished(task).catch((error: unknown) => this.deps.diagnostics.error('finished task not counted', error));
  }

  /**
   * Counts the task's outcome among its owner's finished ones; the oldest beyond
   * `maxFinishedPerOwner` or `maxFinishedBytesPerOwner` lose theirs (the tasks stay, saying why).
   */
  private async keepFinished(task: TaskRecord): Promise<void> {
    const { maxFinishedPerOwner, maxFinishedBytesPerOwner } = this.deps.limits;
    const bound: FinishedBound = { count: maxFinishedPerOwner, bytes: maxFinishedBytesPerOwner };
    const bytes = Buffer.byteLength(JSON.stringify(task.outcome)) + Buffer.byteLength(task.statusMessage ?? '');
    const reason = `The task's result is no longer kept: its caller's finished tasks may keep at most ${maxFinishedPerOwner} results of ${maxFinishedBytesPerOwner} bytes in all, and newer ones took its place`;
    const now = this.clock();
    for (const id of await this.deps.store.keepFinished(task, bytes, bound)) {
      const dropped = await this.deps.store.update(id, (current) => {
        if (!current.outcome) return undefined;
        const { outcome: _outcome, ...rest } = current;
        return { ...rest, dropped: reason, statusMessage: reason, lastUpdatedAt: now };
      });
      if (dropped?.dropped !== undefined) await this.announce(id);
    }
  }

  private async announce(id: string): Promise<void> {
    try {
      await this.deps.bus.broadcast({ kind: 'task-changed', taskId: id });
    } catch (error) {
      // Waiters on this node hear it anyway; another node's find out on their next read.
      this.heard(id);
      this.deps.diagnostics.error('task change not announced', error);
    }
  }

  /** A task changed: whoever waits on it here reads it again; a task this node runs that was cancelled is aborted. */
  private heard(id: string): void {
    const watchers = this.watchers.get(id);
    if (watchers) {
      this.watchers.delete(id);
      for (const wake of watchers) wake();
    }
    const running = this.running.get(id);
    if (running && !running.cancellation.aborted) {
      this.deps.store.get(id).then((task) => {
        if (!task || task.status === 'cancelled') running.cancellation.cancel('the task was cancelled');
      }, (error: unknown) => this.deps.diagnostics.error('task read failed', error));
    }
    // One listener failing (a store read that failed) neither stops the others nor goes unseen.
    const failed = (error: unknown) => this.deps.diagnostics.error('task change not delivered', error);
    for (const listener of this.changeListeners) {
      try {
        listener(id)?.catch(failed);
      } catch (error) {
        failed(error);
      }
    }
  }

  /**
   * Resolves on the task's next change (or when `cancellation` fires, or at the time `until` sets);
   * `stop` lets it go unresolved.
   */
  private nextChange(id: string, cancellation: Cancellation): { promise: Promise<void>; stop: () => void; until: (at: number) => void } {
    let wake!: () => void;
    const promise = new Promise<void>((resolve) => (wake = resolve));
    let set = this.watchers.get(id);
    if (!set) this.watchers.set(id, (set = new Set()));
    set.add(wake);
    const unCancel = cancellation.onCancel(wake);
    let timer: NodeJS.Timeout | undefined;
    const until = (at: number) => {
      timer = setTimeout(wake, Math.min(Math.max(0, at - this.clock()) + 1, MAX_TIMER_MS));
      timer.unref();
    };
    const stop = () => {
      if (timer) clearTimeout(timer);
      unCancel();
      const current = this.watchers.get(id);
      current?.delete(wake);
      if (current?.size === 0) this.watchers.delete(id);
    };
    return { promise: promise.then(stop), stop, until };
  }

  /** Keeps this node's tasks from being taken for abandoned. */
  private async renewLeases(): Promise<void> {
    const until = this.clock() + this.deps.limits.leaseMs;
    for (const id of this.running.keys()) {
      await this.deps.store.update(id, (current) => isTerminal(current.status) || current.runner !== this.node ? undefined : { ...current, leaseUntil: until })
        .catch((error: unknown) => this.deps.diagnostics.error('task lease not renewed', error));
    }
  }

  /** Fails the tasks whose node stopped renewing their lease: no task stays `working` for ever. */
  private async failAbandoned(): Promise<void> {
    try {
      const now = this.clock();
      for (const { id } of await this.deps.store.abandoned(now)) {
        if (this.running.has(id)) continue;
        const task = await this.deps.store.update(id, (current) => isTerminal(current.status) || (current.leaseUntil ?? Infinity) >= now
          ? undefined
          : { ...ended(current, 'failed', now, ABANDONED.message), outcome: { error: ABANDONED } });
        if (task?.status === 'failed') await this.announce(id);
      }
    } catch (error) {
      this.deps.diagnostics.error('abandoned tasks not checked', error);
    }
  }
}

/** The task, terminal: nothing outstanding, nobody running it. */
function ended(task: Readonly<TaskRecord>, status: TaskStatus, now: number, statusMessage?: string): TaskRecord {
  const { inputRequests: _requests, inputResponses: _responses, runner: _runner, leaseUntil: _lease, statusMessage: _message, ...rest } = task;
  return { ...rest, status, lastUpdatedAt: now, ...(statusMessage === undefined ? {} : { statusMessage }) };
}

/** The time a task's record goes (its ttl is from its creation, whatever its status). */
function expiryOf(task: TaskRecord): number {
  return task.createdAt + task.ttlMs;
}

/** The longest a timer may wait in Node (about 24.8 days); a wait past it simply looks again. */
const MAX_TIMER_MS = 2 ** 31 - 1;

function tooManyForOwner(max: number): ProtocolError {
  return new ProtocolError(ErrorCode.TooManyRequests, `Too many tasks: a caller may have at most ${max} running; retry once one has ended`, { maxActiveTasks: max });
}

/** What an input wait was cancelled with when its time ran out. */
const TIMED_OUT = Symbol('timed out');

/** Short, stable key prefixes for a task's input requests, by method. */
const KEY_PREFIX: Readonly<Record<string, string>> = Object.freeze({
  'elicitation/create': 'elicit',
  'sampling/createMessage': 'sample',
  'roots/list': 'roots',
});
