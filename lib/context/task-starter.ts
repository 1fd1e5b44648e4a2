import type { Cancellation } from '../core/cancellation';
import type { ClientChannel } from './client-channel';

/** What the rest of a call that became a task runs with: its task, its way back to the client, its cancellation. */
export interface TaskSide {
  readonly taskId: string;
  readonly channel: ClientChannel;
  /** Cancelled by `tasks/cancel` (no longer by the request, which has been answered). */
  readonly cancellation: Cancellation;
}

/**
 * Turns the call a context belongs to into a task: the protocol layer supplies one when the call
 * may become a task (the tool allows it and the client asked for, or can take, one). Once `start`
 * resolves, the task is stored and the request is answered with it.
 */
export interface TaskStarter {
  /** Stores the task and gives the rest of the call its side of it (its id, its way back to the client, its cancellation); a failure (a limit reached) rejects `ctx.runAsTask()`. */
  start(): Promise<TaskSide>;
}
