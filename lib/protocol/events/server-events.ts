import type { Diagnostics } from '../../core/diagnostics';
import { notification, type JsonRpcMessage, type JsonRpcNotification } from '../../core/jsonrpc';
import { LIST_CHANGED, Notification, type ListKind } from '../../core/methods';
import type { StandaloneSink } from '../in-flight';
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
  // The task service of each node hears it.
  'task-changed': () => {},
});

/** Where an update heard earlier goes for one session: its sink then, or on to the node holding its stream now. */
type HeardSink = (message: JsonRpcNotification) => void;

/**
 * Server-wide events (list changes, resource updates), sent over the bus to every node, and
 * delivered by each to the standalone streams of sessions it holds (GET streams, pipes) and to its
 * `subscriptions/listen` streams.
 *
 * A session's standalone stream may move to another node (its client resumed it there). Each
 * message then reaches it once: every node hears the bus in one order, the new holder delivers
 * what it hears after the move, and this node what it heard before, even when the delivery of an
 * update (which reads the store) ends after the move: it goes to the sinks as they were when the
 * update was heard, a sink handed over meanwhile forwarding it to the new holder over the bus.
 */
export class ServerEvents {
  /** Stateless-era `subscriptions/listen` streams on this node. */
  readonly listeners = new SubscriptionHub();
  private readonly sinks = new Map<string, StandaloneSink>();
  /** Per resource update being delivered: the sink, when heard, of each session whose sink changed since. */
  private readonly delivering = new Set<Map<string, HeardSink | undefined>>();
  private readonly stops: (() => void)[];

  constructor(private readonly deps: ServerEventsDeps) {
    this.stops = [
      deps.bus.onBroadcast((message) => (HEARD[message.kind] as (events: ServerEvents, message: ServerMessage) => void | Promise<void>)(this, message)),
      deps.onListChanged((list) => this.announce({ kind: 'list-changed', list })),
    ];
  }

  /** Where messages that belong to no request go for `sessionId` on this node, from now on; returns how to detach. */
  attach(sessionId: string, sink: StandaloneSink): () => void {
    this.change(sessionId, this.sinks.get(sessionId));
    this.sinks.set(sessionId, sink);
    return () => {
      if (this.sinks.get(sessionId) === sink) this.detach(sessionId);
    };
  }

  /** Nothing more goes to the session's sink on this node, whenever heard (the session ended, its connection closed). */
  detach(sessionId: string): void {
    for (const heard of this.delivering) heard.set(sessionId, undefined);
    this.sinks.delete(sessionId);
  }

  /**
   * Another node holds the session's standalone stream now: this node delivers nothing more to
   * it, and an update it heard before, still being delivered, goes to the new holder.
   */
  handOver(sessionId: string): void {
    if (!this.sinks.has(sessionId)) return;
    this.change(sessionId, (message) => this.forward(sessionId, message));
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
    const heard = new Map<string, HeardSink | undefined>();
    this.delivering.add(heard);
    const sinkOf = (id: string): HeardSink | undefined => (heard.has(id) ? heard.get(id) : this.sinks.get(id));
    try {
      const message = notification(Notification.ResourceUpdated, { uri });
      for (const id of await this.deps.store.subscribers(uri)) {
        if (!sinkOf(id)) continue;
        const state = await this.deps.store.load(id);
        const sink = sinkOf(id);
        if (sink && state && mayKnow(state.principal)) sink(message);
      }
    } catch (error) {
      this.deps.diagnostics.error('resource update failed', error);
    } finally {
      this.delivering.delete(heard);
    }
  }

  close(): void {
    for (const stop of this.stops) stop();
    this.listeners.closeAll();
  }

  /** Keeps, for each update being delivered, what the session's sink was when it was heard (the first change since wins). */
  private change(sessionId: string, before: HeardSink | undefined): void {
    for (const heard of this.delivering) if (!heard.has(sessionId)) heard.set(sessionId, before);
  }

  private forward(sessionId: string, message: JsonRpcNotification): void {
    this.deps.bus.publish(sessionId, { kind: 'notify', notification: message }).catch((error) => this.deps.diagnostics.error('bus publish failed', error));
  }

  private announce(message: ServerMessage): void {
    this.deps.bus.broadcast(message).catch((error) => this.deps.diagnostics.error('bus broadcast failed', error));
  }
}
