import { LIST_CHANGED, Notification, type ListKind } from '../../core/methods';
import type { JsonObject } from '../../core/wire.types';

/**
 * What a `subscriptions/listen` stream asks for (protocol 2026-07-28 `SubscriptionFilter`), and
 * the ids it asks for under the keys extensions add (the tasks extension's `taskIds`).
 */
export interface ListenFilter {
  readonly toolsListChanged?: boolean;
  readonly promptsListChanged?: boolean;
  readonly resourcesListChanged?: boolean;
  readonly resourceSubscriptions?: readonly string[];
  /** Per key an extension adds to the filter, the ids the stream listens for. */
  readonly extensionIds?: Readonly<Record<string, readonly string[]>>;
}

type Deliver = (method: string, params: JsonObject) => void;

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

/** The filter as the stream's acknowledgement shows it: each extension's ids under its own key. */
export function filterAsSent({ extensionIds, ...filter }: ListenFilter): JsonObject {
  return { ...filter, ...extensionIds } as JsonObject;
}

/**
 * The open `subscriptions/listen` streams of this process, each receiving only the notification
 * types, resource URIs and extension ids (task ids) its filter names.
 */
export class SubscriptionHub {
  private readonly listeners = new Set<Listener>();
  /** The streams naming each id under each extension key: most changes heard (every task's, on every node) concern no stream. */
  private readonly byId = new Map<string, Set<Listener>>();

  /** Registers a stream; returns how to remove it. `end` is called if the server closes it first. */
  add(filter: ListenFilter, principal: unknown, deliver: Deliver, end: () => void): () => void {
    const listener: Listener = { filter, principal, deliver, end };
    this.listeners.add(listener);
    for (const slot of slotsOf(filter)) {
      let named = this.byId.get(slot);
      if (!named) this.byId.set(slot, (named = new Set()));
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

  /** Whether a stream here names `id` under the extension key `key` (only then is it worth reading what changed). */
  watches(key: string, id: string): boolean {
    return this.byId.has(slot(key, id));
  }

  /** Sends `method` with `params` to the streams naming `id` under `key` whose principal `mayKnow` it; the others hear nothing. */
  notify(key: string, id: string, method: string, params: JsonObject, mayKnow: (principal: unknown) => boolean): void {
    for (const { principal, deliver } of [...(this.byId.get(slot(key, id)) ?? [])]) if (mayKnow(principal)) deliver(method, params);
  }

  /** Ends every stream (server shutdown): each gets its graceful closing response. */
  closeAll(): void {
    for (const listener of [...this.listeners]) listener.end();
    this.listeners.clear();
    this.byId.clear();
  }

  get size(): number {
    return this.listeners.size;
  }

  private remove(listener: Listener): void {
    this.listeners.delete(listener);
    for (const named of slotsOf(listener.filter)) {
      const streams = this.byId.get(named);
      streams?.delete(listener);
      if (streams?.size === 0) this.byId.delete(named);
    }
  }
}

/** One id under one key, as the index names it. */
function slot(key: string, id: string): string {
  return `${key}\u0000${id}`;
}

function slotsOf(filter: ListenFilter): Set<string> {
  return new Set(Object.entries(filter.extensionIds ?? {}).flatMap(([key, ids]) => ids.map((id) => slot(key, id))));
}
