import { StoreUnavailableError } from '../core/errors';
import type { RedisChannels } from './redis-channels';

/**
 * One listener of the bus on one channel, until it is stopped. SUBSCRIBE is asked for at once;
 * when Redis cannot be told (it is down), `ready` rejects and the subscription waits for the
 * connection to come back (`retry`), so that a listener made during an outage hears once Redis
 * is back, as one made before it does (ioredis subscribes those again by itself).
 */
export class RedisBusSubscription {
  readonly ready: Promise<void>;
  private stopped = false;
  /** The last try failed: the next `retry` tries again. */
  private waiting = false;
  private attempt: Promise<void>;
  private leave?: () => Promise<void>;

  /** `label` names the channel in errors (never a whole session id: those are secrets). */
  constructor(
    private readonly channels: RedisChannels,
    private readonly channel: string,
    private readonly label: string,
    private readonly hear: (text: string, delivery: object) => void,
  ) {
    this.ready = this.attempt = this.subscribe();
    // Awaiting `ready` is the caller's choice; unawaited, its failure is no crash.
    this.ready.catch(() => undefined);
  }

  /** Subscribes again if the last try failed: the subscriber connection is back. */
  retry(): void {
    if (this.waiting && !this.stopped) this.attempt = this.subscribe().catch(() => undefined);
  }

  /**
   * Hears nothing from now on; resolves once the channel is left. Asks to leave before it
   * returns, so that a SUBSCRIBE asked for after it (the same session held again) goes after.
   */
  stop(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.stopped = true;
    // A try under way leaves by itself once it lands (see `subscribe`).
    return this.leave ? this.leave() : this.attempt.catch(() => undefined);
  }

  private async subscribe(): Promise<void> {
    this.waiting = false;
    let leave: () => Promise<void>;
    try {
      leave = await this.channels.listen(this.channel, (text, delivery) => {
        // Stopping is synchronous; leaving the channel is not: nothing is heard in between.
        if (!this.stopped) this.hear(text, delivery);
      });
    } catch (error) {
      this.waiting = true;
      throw new StoreUnavailableError('redis_unavailable', `The session bus cannot subscribe to ${this.label} on Redis: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    if (this.stopped) return leave();
    this.leave = leave;
  }
}
