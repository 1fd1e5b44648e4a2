import { LIST_CHANGED, Notification, type ListKind } from '../../core/methods';
import type { JsonObject } from '../../core/wire.types';

/** The tasks extension's notification: a task's `DetailedTask`, each time it changes. */
export const TASK_NOTIFICATION = 'notifications/tasks';

/** What a `subscriptions/listen` stream asks for (protocol 2026-07-28 `SubscriptionFilter`, and the tasks extension's `taskIds`). */
export interface ListenFilter {
  readonly toolsListChanged?: boolean;
  readonly promptsListChanged?: boolean;
  readonly resourcesListChanged?: boolean;
  readonly resourceSubscriptions?: readonly string[];
  readonly taskIds?: readonly string[];
}

type Deliver = (method: Notification | typeof TASK_NOTIFICATION, params: JsonObject) => void;

interface Listener {
  readonly filter: ListenFilter;
  /** Who opened the stream: a resource it may not know, a task it does not own, is never announced to it. */
  readonly principal: unknown;
  readonly deliver: Deliver;
  readonly end: () => void;
}

const FLAG_OF: Readonly<Record<ListKind, keyof ListenFilter>> = Object.freeze({
  tools: 'toolsListChanged', prompts: 'promptsListChanged', resources: 'resourcesListChanged',
});

/**
 * The open `subscriptions/listen` streams of this process, each receiving only the notification
 * types, resource URIs and task ids its filter names.
 */
export class SubscriptionHub {
  private readonly listeners = new Set<Listener>();
  /** The streams naming each task id: every task change on every node is heard here, most concern no stream. */
  private readonly byTask = new Map<string, Set<Listener>>();

  /** Registers a stream; returns how to remove it. `end` is called if the server closes it first. */
  add(filter: ListenFilter, principal: unknown, deliver: Deliver, end: () => void): () => void {
    const listener: Listener = { filter, principal, deliver, end };
    this.listeners.add(listener);
    for (const id of new Set(filter.taskIds)) {
      let named = this.byTask.get(id);
      if (!named) this.byTask.set(id, (named = new Set()));
      named.add(listener);
    }
    return () => this.remove(listener);
  }

  listChanged(kind: ListKind): void {
    for (const { filter, deliver } of this.listeners) if (filter[FLAG_OF[kind]] === true) deliver(LIST_CHANGED[kind], {});
  }

  /** Announces `uri` to the streams that asked for it and whose principal `mayKnow` it. */
  resourceUpdated(uri: string, mayKnow: (principal: unknown) => boolean): void {
    for (const { filter, principal, deliver } of this.listeners) {
      if (filter.resourceSubscriptions?.includes(uri) && mayKnow(principal)) deliver(Notification.ResourceUpdated, { uri });
    }
  }

  /** Whether a stream here names the task `taskId` (only then is it worth reading the task). */
  watches(taskId: string): boolean {
    return this.byTask.has(taskId);
  }

  /** Sends the task's `DetailedTask` to the streams naming it whose principal `owns` it; the others hear nothing. */
  taskChanged(taskId: string, task: JsonObject, owns: (principal: unknown) => boolean): void {
    for (const { principal, deliver } of [...(this.byTask.get(taskId) ?? [])]) if (owns(principal)) deliver(TASK_NOTIFICATION, task);
  }

  /** Ends every stream (server shutdown): each gets its graceful closing response. */
  closeAll(): void {
    for (const listener of [...this.listeners]) listener.end();
    this.listeners.clear();
    this.byTask.clear();
  }

  get size(): number {
    return this.listeners.size;
  }

  private remove(listener: Listener): void {
    this.listeners.delete(listener);
    for (const id of new Set(listener.filter.taskIds)) {
      const named = this.byTask.get(id);
      named?.delete(listener);
      if (named?.size === 0) this.byTask.delete(id);
    }
  }
}
