import { LIST_CHANGED, Notification, type ListKind } from '../../core/methods';
import type { JsonObject } from '../../core/wire.types';

/** What a `subscriptions/listen` stream asks for (protocol 2026-07-28 `SubscriptionFilter`). */
export interface ListenFilter {
  readonly toolsListChanged?: boolean;
  readonly promptsListChanged?: boolean;
  readonly resourcesListChanged?: boolean;
  readonly resourceSubscriptions?: readonly string[];
}

type Deliver = (method: Notification, params: JsonObject) => void;

interface Listener {
  readonly filter: ListenFilter;
  /** Who opened the stream: a resource it may not know is never announced to it. */
  readonly principal: unknown;
  readonly deliver: Deliver;
  readonly end: () => void;
}

const FLAG_OF: Readonly<Record<ListKind, keyof ListenFilter>> = Object.freeze({
  tools: 'toolsListChanged', prompts: 'promptsListChanged', resources: 'resourcesListChanged',
});

/**
 * The open `subscriptions/listen` streams of this process, each receiving only the notification
 * types and resource URIs its filter names.
 */
export class SubscriptionHub {
  private readonly listeners = new Set<Listener>();

  /** Registers a stream; returns how to remove it. `end` is called if the server closes it first. */
  add(filter: ListenFilter, principal: unknown, deliver: Deliver, end: () => void): () => void {
    const listener: Listener = { filter, principal, deliver, end };
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
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

  /** Ends every stream (server shutdown): each gets its graceful closing response. */
  closeAll(): void {
    for (const listener of [...this.listeners]) listener.end();
    this.listeners.clear();
  }

  get size(): number {
    return this.listeners.size;
  }
}
