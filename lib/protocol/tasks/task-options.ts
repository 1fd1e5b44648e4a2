/** The limits of tasks, each an option of the server (`PhantomServerOptions.tasks`). */
export interface TaskOptions {
  /** How long a task is kept after it was created when the client asks for no ttl (default 1 hour). */
  readonly defaultTtlMs?: number;
  /** The longest ttl a client may ask for; longer asks get this (default 24 hours). */
  readonly maxTtlMs?: number;
  /**
   * The shortest ttl a client may ask for; shorter asks get this (default 5 s): the revisions let
   * the server choose the ttl it grants, and show the granted one.
   */
  readonly minTtlMs?: number;
  /** How often clients are told to poll a task (default 1 s). */
  readonly pollIntervalMs?: number;
  /**
   * Tasks one caller may have running at once (default 100); more are refused with -32010. A task
   * counts until its handler has ended, even when its record expired before.
   */
  readonly maxActivePerOwner?: number;
  /** Task handlers one node may run at once, whoever started them (default 1,000); more are refused with -32010. */
  readonly maxRunningPerNode?: number;
  /**
   * Finished tasks of one caller whose results are kept (default 1,000): past it, the oldest
   * finished task's result is dropped (the task stays, and says so when its result is asked for).
   */
  readonly maxFinishedPerOwner?: number;
  /**
   * Bytes of results (their JSON) one caller's finished tasks may hold (default 16 MiB): past it,
   * the oldest finished results are dropped, as for `maxFinishedPerOwner`.
   */
  readonly maxFinishedBytesPerOwner?: number;
  /**
   * How long the node running a task may go without renewing its lease (it renews a third as
   * often) before another node fails the task: its node stopped (default 30 s).
   */
  readonly leaseMs?: number;
  /** Tasks per page of `tasks/list` (default 50). */
  readonly pageSize?: number;
}

/** Every limit of tasks, with the defaults filled in. */
export type TaskLimits = Required<TaskOptions>;

export const DEFAULT_TASK_LIMITS: TaskLimits = Object.freeze({
  defaultTtlMs: 60 * 60 * 1000,
  maxTtlMs: 24 * 60 * 60 * 1000,
  minTtlMs: 5_000,
  pollIntervalMs: 1000,
  maxActivePerOwner: 100,
  maxRunningPerNode: 1_000,
  maxFinishedPerOwner: 1_000,
  maxFinishedBytesPerOwner: 16 * 1024 * 1024,
  leaseMs: 30_000,
  pageSize: 50,
});

export function taskLimits(options: TaskOptions = {}): TaskLimits {
  const defined = Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
  return Object.freeze({ ...DEFAULT_TASK_LIMITS, ...defined });
}
