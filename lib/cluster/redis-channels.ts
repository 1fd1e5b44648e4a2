import type { Redis } from 'ioredis';

/**
 * Hears the messages of one channel. `delivery` is one object per message received, the same for
 * every listener of it: what a listener derives from a message (the bus decodes and checks it)
 * can be done once per delivery, and two deliveries of equal text told apart (a replay).
 */
export type ChannelListener = (message: string, delivery: object) => void;

/** The listeners of one channel, and the SUBSCRIBE they all wait for. */
interface Channel {
  readonly listeners: Set<ChannelListener>;
  readonly subscribed: Promise<unknown>;
}

/**
 * The pub/sub channels this server listens to, on its one subscriber connection: any number of
 * listeners per channel, SUBSCRIBE when the first arrives and UNSUBSCRIBE when the last leaves.
 * The session store, the event store and the bus each name their own channels (under the key
 * prefix), so they share the connection without hearing each other.
 *
 * SUBSCRIBE and UNSUBSCRIBE are sent when asked, without waiting for the answers to earlier ones:
 * Redis runs one connection's commands in the order they were sent, so a quick leave-and-return
 * ends subscribed, and a burst of new sessions costs one round trip, not one each in a row.
 *
 * After Redis restarts, ioredis subscribes the connection to its channels again by itself; a
 * message published while it was away is lost (pub/sub is at most once, as the bus promises).
 */
export class RedisChannels {
  private readonly channels = new Map<string, Channel>();
  /**
   * Channels left while Redis was away: ioredis still counts them as subscribed and subscribes
   * them again when it reconnects, so they are unsubscribed then (unless listened to again).
   */
  private readonly unsubscribeLater = new Set<string>();

  constructor(private readonly subscriber: Redis) {
    subscriber.on('message', (channel: string, message: string) => {
      const heard = this.channels.get(channel)?.listeners;
      if (!heard) return;
      const delivery = {};
      for (const listener of [...heard]) {
        try {
          listener(message, delivery);
        } catch {
          // A listener reports its own failures; the others still hear the message.
        }
      }
    });
    // Emitted after ioredis has sent its own re-SUBSCRIBE, so the UNSUBSCRIBE goes after it.
    subscriber.on('ready', () => this.unsubscribeLeftovers());
  }

  /**
   * Listens to `channel`; resolves once Redis confirmed the subscription (a message published
   * after that is heard), with how to stop. Rejects, and forgets the listener, when Redis could
   * not be told; so does every listener that arrived while that SUBSCRIBE was on its way.
   */
  async listen(channel: string, listener: ChannelListener): Promise<() => Promise<void>> {
    let joined = this.channels.get(channel);
    if (!joined) {
      this.unsubscribeLater.delete(channel);
      const subscribed = this.subscriber.subscribe(channel);
      this.channels.set(channel, (joined = { listeners: new Set(), subscribed }));
      const created = joined;
      // A failed SUBSCRIBE leaves nothing behind: whoever listens next subscribes afresh.
      subscribed.catch(() => {
        if (this.channels.get(channel) === created) this.channels.delete(channel);
      });
    }
    const entry = joined;
    entry.listeners.add(listener);
    try {
      await entry.subscribed;
    } catch (error) {
      entry.listeners.delete(listener);
      throw error;
    }
    let stopped = false;
    return async () => {
      if (stopped) return;
      stopped = true;
      await this.leave(channel, entry, listener);
    };
  }

  /** Channels with a listener (for tests and leak checks). */
  get channelCount(): number {
    return this.channels.size;
  }

  private async leave(channel: string, entry: Channel, listener: ChannelListener): Promise<void> {
    if (!entry.listeners.delete(listener) || entry.listeners.size > 0 || this.channels.get(channel) !== entry) return;
    this.channels.delete(channel);
    await this.subscriber.unsubscribe(channel).catch(() => {
      if (!this.channels.has(channel)) this.unsubscribeLater.add(channel);
    });
  }

  private unsubscribeLeftovers(): void {
    const leftovers = [...this.unsubscribeLater].filter((channel) => !this.channels.has(channel));
    this.unsubscribeLater.clear();
    if (leftovers.length === 0) return;
    this.subscriber.unsubscribe(...leftovers).catch(() => {
      for (const channel of leftovers) if (!this.channels.has(channel)) this.unsubscribeLater.add(channel);
    });
  }
}
