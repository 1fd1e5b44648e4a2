import type { ExtensionHost } from '../../router/extensions/extension';
import type { TaskRecord } from '../seams/task-store';
import type { TaskService } from './task-service';
import { taskOwner } from './task-owner';
import { detailedTaskView } from './task-views';

/**
 * `notifications/tasks` on this node's `subscriptions/listen` streams: each time a task changes
 * (on any node), the streams here naming it hear its `DetailedTask`, as `tasks/get` shows it,
 * when their principal owns it. The task is read only when a stream here names it, and the
 * snapshots of one task go out in the order its changes were heard, even when a later read
 * comes back first (a terminal task is never followed by an older state).
 */
/** The tasks extension's notification: a task's `DetailedTask`, each time it changes. */
export const TASK_NOTIFICATION = 'notifications/tasks';

/** Where the notifications go: the listen streams naming a task id under the extension's `taskIds`. */
export type TaskListeners = Pick<ExtensionHost, 'isListenedFor' | 'notifyListeners'>;

export class TaskNotifications {
  /** Per task id, the delivery still to go out last (dropped once it has). */
  private readonly pending = new Map<string, Promise<void>>();

  /** Stops hearing the service's changes. */
  readonly stop: () => void;

  /** Hears the service's changes until `stop` (a closed service hears none). */
  constructor(private readonly tasks: Pick<TaskService, 'onChange' | 'peek'>, private readonly listeners: TaskListeners) {
    this.stop = tasks.onChange((id) => this.changed(id));
  }

  /** Reads the task now and delivers it after what was heard before; rejects when the read fails (the service reports it). */
  private changed(id: string): Promise<void> | undefined {
    if (!this.listeners.isListenedFor(id)) return undefined;
    const read = this.tasks.peek(id);
    // Handled here too: a read failing while an earlier delivery is still pending is not left unhandled.
    read.catch(() => {});
    const delivered = (this.pending.get(id) ?? Promise.resolve()).then(() => read).then((task) => this.deliver(id, task));
    const last = delivered.catch(() => {}).then(() => {
      if (this.pending.get(id) === last) this.pending.delete(id);
    });
    this.pending.set(id, last);
    return delivered;
  }

  private deliver(id: string, task: TaskRecord | undefined): void {
    if (!task) return;
    this.listeners.notifyListeners(id, TASK_NOTIFICATION, detailedTaskView(task), (principal) => taskOwner(principal, undefined) === task.owner);
  }
}
