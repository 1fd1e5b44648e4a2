/** The limits of tasks, each an option of the server (`PhantomServerOptions.tasks`). */
export interface TaskOptions {
  /** How long a task is kept after it was created when the client asks for no ttl (default 1 hour). */
  readonly defaultTtlMs?: number;
  /** The longest ttl a client may ask for; longer asks get this (default 24 hours). */
  readonly maxTtlMs?: number;
  /** How often clients are told to poll a task (default 1 s). */
  readonly pollIntervalMs?: number;
  /** Tasks one caller may have running (not terminal) at once (default 100); more are refused with -32010. */
  readonly maxActivePerOwner?: number;
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
  pollIntervalMs: 1000,
  maxActivePerOwner: 100,
  leaseMs: 30_000,
  pageSize: 50,
});

export function taskLimits(options: TaskOptions = {}): TaskLimits {
  const defined = Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
  return Object.freeze({ ...DEFAULT_TASK_LIMITS, ...defined });
}
