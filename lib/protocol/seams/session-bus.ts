import type { JsonRpcNotification, JsonRpcRequest, JsonRpcResponse, RequestId } from '../../core/jsonrpc';
import type { ListKind } from '../../core/methods';

/**
 * What one node tells the node that holds something of a session: the client's answer to a
 * server-to-client request, a cancellation of a request running there, a notification for the
 * session's standalone stream, that another node holds that stream now, the session's end.
 */
export type SessionMessage =
  | { readonly kind: 'response'; readonly response: JsonRpcResponse }
  | { readonly kind: 'cancel'; readonly requestId: RequestId; readonly reason?: string }
  /** A message for the session's standalone stream: a notification, or a request of a task's handler (2025-11-25). */
  | { readonly kind: 'notify'; readonly notification: JsonRpcNotification | JsonRpcRequest }
  /**
   * The node `holder` holds the session's standalone stream from here on, the stream `streamId`
   * (its event-store id): it delivers what the bus carries after this message, the node that held
   * it before what came before (both hear the same order).
   */
  | { readonly kind: 'standalone-moved'; readonly holder: string; readonly streamId: string }
  | { readonly kind: 'ended' };

/** What every node hears: list changes, resource updates, the end of a URL elicitation, task changes. */
export type ServerMessage =
  | { readonly kind: 'list-changed'; readonly list: ListKind }
  | { readonly kind: 'resource-updated'; readonly uri: string }
  | { readonly kind: 'elicitation-complete'; readonly elicitationId: string }
  /** The task changed in the task store (status, input, answers): whoever waits on it or notifies about it reads it again. */
  | { readonly kind: 'task-changed'; readonly taskId: string };

/**
 * Hears a message; what it returns is awaited by the in-process bus, so that `publish` and
 * `broadcast` resolve once this node has delivered (a Redis bus resolves once it has sent).
 */
export type SessionListener = (message: SessionMessage) => void | Promise<void>;
/** Hears a server-wide message; awaited by the in-process bus, as a {@link SessionListener} is. */
export type ServerListener = (message: ServerMessage) => void | Promise<void>;

/**
 * How to stop listening (call it; a second call does nothing), and when the listening is live.
 * A bus between processes subscribes asynchronously: a node awaits `ready` before it sends the
 * client a request whose answer may land on another node, so that the answer cannot overtake
 * the subscription.
 */
export interface BusSubscription {
  (): void;
  /**
   * Resolves once a message published from then on, by any node, is heard; rejects when the bus
   * cannot listen now (its backend is unreachable), in which case a bus that can goes on trying
   * until the subscription is stopped. In process it is resolved from the start.
   */
  readonly ready: Promise<void>;
}

/**
 * The seam between replicas. A node subscribes to a session while it holds a live part of it (a
 * request waiting for the client, a request that may be cancelled, a standalone stream) and hears
 * every server-wide message. The in-process bus below is the default; a Redis bus (pub/sub)
 * carries the same messages between processes. Delivery is at most once: a message for a session
 * nobody holds is dropped, as a message to a closed stream would be. Every listener hears the
 * messages, session and server-wide, in one order, the same for every node, its own messages
 * included: what a handover of a session's standalone stream relies on ('standalone-moved').
 */
export interface SessionBus {
  /** Sends `message` to whichever node holds `sessionId` (this one included). */
  publish(sessionId: string, message: SessionMessage): Promise<void>;
  /** Hears the messages of `sessionId`; returns how to stop, and when it is live. */
  subscribe(sessionId: string, listener: SessionListener): BusSubscription;
  /** Sends `message` to every node (this one included). */
  broadcast(message: ServerMessage): Promise<void>;
  /** Hears every server-wide message; returns how to stop, and when it is live. */
  onBroadcast(listener: ServerListener): BusSubscription;
  /** Stops delivering and frees what the bus holds (connections it shares are their owner's to close). */
  close(): Promise<void>;
}

/** The default: one process, messages delivered synchronously to this process's listeners. */
export class InProcessSessionBus implements SessionBus {
  private readonly sessions = new Map<string, Set<SessionListener>>();
  private readonly everyone = new Set<ServerListener>();

  async publish(sessionId: string, message: SessionMessage): Promise<void> {
    await deliver(this.sessions.get(sessionId), message);
  }

  subscribe(sessionId: string, listener: SessionListener): BusSubscription {
    let listeners = this.sessions.get(sessionId);
    if (!listeners) this.sessions.set(sessionId, (listeners = new Set()));
    listeners.add(listener);
    return live(() => {
      listeners!.delete(listener);
      if (listeners!.size === 0 && this.sessions.get(sessionId) === listeners) this.sessions.delete(sessionId);
    });
  }

  async broadcast(message: ServerMessage): Promise<void> {
    await deliver(this.everyone, message);
  }

  onBroadcast(listener: ServerListener): BusSubscription {
    this.everyone.add(listener);
    return live(() => { this.everyone.delete(listener); });
  }

  async close(): Promise<void> {
    this.sessions.clear();
    this.everyone.clear();
  }

  /** Sessions someone listens to (for tests and leak checks). */
  get sessionCount(): number {
    return this.sessions.size;
  }
}

const LIVE: Promise<void> = Promise.resolve();

/** A subscription of this process: live as soon as it is made. */
function live(stop: () => void): BusSubscription {
  return Object.assign(stop, { ready: LIVE });
}

/**
 * Calls every listener at once, in order, then waits for those still delivering. A listener
 * reports its own failures (the bus cannot know where they belong); one that fails never keeps
 * the message from the others, nor fails the sender.
 */
async function deliver<M>(listeners: ReadonlySet<(message: M) => void | Promise<void>> | undefined, message: M): Promise<void> {
  if (!listeners || listeners.size === 0) return;
  const delivering: Promise<void>[] = [];
  for (const listener of [...listeners]) {
    try {
      const pending = listener(message);
      if (pending) delivering.push(pending.catch(() => undefined));
    } catch {
      // The listener's own failure: see above.
    }
  }
  if (delivering.length > 0) await Promise.all(delivering);
}
