import type { Redis } from 'ioredis';

/** Hears the messages of one channel. */
export type ChannelListener = (message: string) => void;

/**
 * The pub/sub channels this server listens to, on its one subscriber connection: any number of
 * listeners per channel, SUBSCRIBE when the first arrives and UNSUBSCRIBE when the last leaves.
 * The session store, the event store and the bus each name their own channels (under the key
 * prefix), so they share the connection without hearing each other.
 *
 * After Redis restarts, ioredis subscribes the connection to its channels again by itself; a
 * message published while it was away is lost (pub/sub is at most once, as the bus promises).
 */
export class RedisChannels {
  private readonly listeners = new Map<string, Set<ChannelListener>>();
  /** SUBSCRIBE and UNSUBSCRIBE in the order asked, so a quick leave-and-return ends subscribed. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly subscriber: Redis) {
    subscriber.on('message', (channel: string, message: string) => {
      const heard = this.listeners.get(channel);
      if (!heard) return;
      for (const listener of [...heard]) {
        try {
          listener(message);
        } catch {
          // A listener reports its own failures; the others still hear the message.
        }
      }
    });
  }

  /**
   * Listens to `channel`; resolves once Redis confirmed the subscription (a message published
   * after that is heard), with how to stop.
   */
  async listen(channel: string, listener: ChannelListener): Promise<() => Promise<void>> {
    let heard = this.listeners.get(channel);
    const first = !heard;
    if (!heard) this.listeners.set(channel, (heard = new Set()));
    heard.add(listener);
    const subscribed = first ? this.serially(() => this.subscriber.subscribe(channel)) : this.queue;
    try {
      await subscribed;
    } catch (error) {
      this.leave(channel, listener);
      throw error;
    }
    let stopped = false;
    return async () => {
      if (stopped) return;
      stopped = true;
      await this.leave(channel, listener);
    };
  }

  /** Channels with a listener (for tests and leak checks). */
  get channelCount(): number {
    return this.listeners.size;
  }

  private async leave(channel: string, listener: ChannelListener): Promise<void> {
    const heard = this.listeners.get(channel);
    if (!heard?.delete(listener) || heard.size > 0) return;
    this.listeners.delete(channel);
    await this.serially(() => this.subscriber.unsubscribe(channel)).catch(() => undefined);
  }

  private serially<T>(step: () => Promise<T>): Promise<T> {
    const next = this.queue.then(step);
    this.queue = next.catch(() => undefined);
    return next;
  }
}
