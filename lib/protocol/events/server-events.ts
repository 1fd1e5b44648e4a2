import type { Diagnostics } from '../../core/diagnostics';
import { notification, type JsonRpcMessage } from '../../core/jsonrpc';
import { LIST_CHANGED, Notification, type ListKind } from '../../core/methods';
import type { StandaloneSink } from '../exchange';
import type { SessionStore } from '../seams/session-store';
import type { ServerMessage, SessionBus } from '../seams/session-bus';
import { SubscriptionHub } from './subscription-hub';

/** What server events need: the bus, the sessions' subscriptions, the resource rule, where failures go. */
export interface ServerEventsDeps {
  readonly bus: SessionBus;
  readonly store: Pick<SessionStore, 'subscribers' | 'load'>;
  /** Whether `principal` may know the resource `uri` (the rule of `resources/read`). */
  readonly canRead: (uri: string, principal: unknown) => boolean;
  /** Hears each runtime change to a list; returns how to stop. */
  readonly onListChanged: (listener: (kind: ListKind) => void) => () => void;
  readonly diagnostics: Diagnostics;
}

type Heard = { readonly [K in ServerMessage['kind']]: (events: ServerEvents, message: Extract<ServerMessage, { kind: K }>) => void | Promise<void> };

/** What each server-wide message does on this node. */
const HEARD: Heard = Object.freeze({
  'list-changed': (events, { list }) => events.deliverListChange(list),
  'resource-updated': (events, { uri }) => events.deliverUpdate(uri),
  // The session engine of the node that sent the elicitation hears it.
  'elicitation-complete': () => {},
});

/**
 * Server-wide events (list changes, resource updates), sent over the bus to every node, and
 * delivered by each to the standalone streams of sessions it holds (GET streams, pipes) and to its
 * `subscriptions/listen` streams.
 */
export class ServerEvents {
  /** Stateless-era `subscriptions/listen` streams on this node. */
  readonly listeners = new SubscriptionHub();
  private readonly sinks = new Map<string, StandaloneSink>();
  private readonly stops: (() => void)[];

  constructor(private readonly deps: ServerEventsDeps) {
    this.stops = [
      deps.bus.onBroadcast((message) => (HEARD[message.kind] as (events: ServerEvents, message: ServerMessage) => void | Promise<void>)(this, message)),
      deps.onListChanged((list) => this.announce({ kind: 'list-changed', list })),
    ];
  }

  /** Where messages that belong to no request go for `sessionId` on this node; returns how to detach. */
  attach(sessionId: string, sink: StandaloneSink): () => void {
    this.sinks.set(sessionId, sink);
    return () => {
      if (this.sinks.get(sessionId) === sink) this.sinks.delete(sessionId);
    };
  }

  detach(sessionId: string): void {
    this.sinks.delete(sessionId);
  }

  /** Delivers to the session's standalone stream if this node holds it; `false` if not. */
  deliver(sessionId: string, message: JsonRpcMessage): boolean {
    const sink = this.sinks.get(sessionId);
    sink?.(message);
    return sink !== undefined;
  }

  /** Tells every node that `uri` changed; each tells its subscribers that may know it. */
  resourceUpdated(uri: string): Promise<void> {
    return this.deps.bus.broadcast({ kind: 'resource-updated', uri });
  }

  /** @internal Delivers a list change to this node's streams. */
  deliverListChange(list: ListKind): void {
    const message = notification(LIST_CHANGED[list]);
    for (const sink of this.sinks.values()) sink(message);
    this.listeners.listChanged(list);
  }

  /**
   * @internal Delivers a resource update to this node's streams: listen streams asking for it, and
   * sessions subscribed to it, each only if its principal may know the resource (visibility can
   * change after a subscription was made).
   */
  async deliverUpdate(uri: string): Promise<void> {
    const mayKnow = (principal: unknown) => this.deps.canRead(uri, principal);
    this.listeners.resourceUpdated(uri, mayKnow);
    try {
      const message = notification(Notification.ResourceUpdated, { uri });
      for (const id of await this.deps.store.subscribers(uri)) {
        const sink = this.sinks.get(id);
        if (!sink) continue;
        const state = await this.deps.store.load(id);
        if (state && mayKnow(state.principal)) sink(message);
      }
    } catch (error) {
      this.deps.diagnostics.error('resource update failed', error);
    }
  }

  close(): void {
    for (const stop of this.stops) stop();
    this.listeners.closeAll();
  }

  private announce(message: ServerMessage): void {
    this.deps.bus.broadcast(message).catch((error) => this.deps.diagnostics.error('bus broadcast failed', error));
  }
}
