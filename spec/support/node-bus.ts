import type { BusSubscription, InProcessSessionBus, ServerListener, ServerMessage, SessionBus, SessionListener, SessionMessage } from '../../lib/protocol/seams/session-bus';

/**
 * One node's end of a bus shared in process, as each replica has its own connection to Redis:
 * closing it (the node's server closing) stops this node's listeners only, not the others'.
 */
export class NodeBus implements SessionBus {
  private readonly subscriptions = new Set<BusSubscription>();

  constructor(private readonly shared: InProcessSessionBus) {}

  publish(sessionId: string, message: SessionMessage): Promise<void> {
    return this.shared.publish(sessionId, message);
  }

  subscribe(sessionId: string, listener: SessionListener): BusSubscription {
    return this.track(this.shared.subscribe(sessionId, listener));
  }

  broadcast(message: ServerMessage): Promise<void> {
    return this.shared.broadcast(message);
  }

  onBroadcast(listener: ServerListener): BusSubscription {
    return this.track(this.shared.onBroadcast(listener));
  }

  async close(): Promise<void> {
    for (const stop of this.subscriptions) stop();
    this.subscriptions.clear();
  }

  private track(subscription: BusSubscription): BusSubscription {
    this.subscriptions.add(subscription);
    return Object.assign(() => {
      this.subscriptions.delete(subscription);
      subscription();
    }, { ready: subscription.ready });
  }
}
