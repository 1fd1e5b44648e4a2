import type { JsonRpcNotification, JsonRpcResponse, RequestId } from '../../core/jsonrpc';
import type { ListKind } from '../../core/methods';

/**
 * What one node tells the node that holds something of a session: the client's answer to a
 * server-to-client request, a cancellation of a request running there, a notification for the
 * session's standalone stream, the session's end.
 */
export type SessionMessage =
  | { readonly kind: 'response'; readonly response: JsonRpcResponse }
  | { readonly kind: 'cancel'; readonly requestId: RequestId; readonly reason?: string }
  | { readonly kind: 'notify'; readonly notification: JsonRpcNotification }
  | { readonly kind: 'ended' };

/** What every node hears: list changes, resource updates, the end of a URL elicitation. */
export type ServerMessage =
  | { readonly kind: 'list-changed'; readonly list: ListKind }
  | { readonly kind: 'resource-updated'; readonly uri: string }
  | { readonly kind: 'elicitation-complete'; readonly elicitationId: string };

/**
 * The seam between replicas. A node subscribes to a session while it holds a live part of it (a
 * request waiting for the client, a request that may be cancelled, a standalone stream) and hears
 * every server-wide message. The in-process bus below is the default; a Redis bus (pub/sub)
 * carries the same messages between processes. Delivery is at most once: a message for a session
 * nobody holds is dropped, as a message to a closed stream would be.
 */
export interface SessionBus {
  /** Sends `message` to whichever node holds `sessionId` (this one included). */
  publish(sessionId: string, message: SessionMessage): Promise<void>;
  /** Hears the messages of `sessionId`; returns how to stop. */
  subscribe(sessionId: string, listener: (message: SessionMessage) => void): () => void;
  /** Sends `message` to every node (this one included). */
  broadcast(message: ServerMessage): Promise<void>;
  /** Hears every server-wide message; returns how to stop. */
  onBroadcast(listener: (message: ServerMessage) => void): () => void;
  /** Stops delivering and frees connections. */
  close(): Promise<void>;
}

/** The default: one process, messages delivered synchronously to this process's listeners. */
export class InProcessSessionBus implements SessionBus {
  private readonly sessions = new Map<string, Set<(message: SessionMessage) => void>>();
  private readonly everyone = new Set<(message: ServerMessage) => void>();

  async publish(sessionId: string, message: SessionMessage): Promise<void> {
    for (const listener of [...(this.sessions.get(sessionId) ?? [])]) listener(message);
  }

  subscribe(sessionId: string, listener: (message: SessionMessage) => void): () => void {
    let listeners = this.sessions.get(sessionId);
    if (!listeners) this.sessions.set(sessionId, (listeners = new Set()));
    listeners.add(listener);
    return () => {
      listeners!.delete(listener);
      if (listeners!.size === 0 && this.sessions.get(sessionId) === listeners) this.sessions.delete(sessionId);
    };
  }

  async broadcast(message: ServerMessage): Promise<void> {
    for (const listener of [...this.everyone]) listener(message);
  }

  onBroadcast(listener: (message: ServerMessage) => void): () => void {
    this.everyone.add(listener);
    return () => this.everyone.delete(listener);
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
