import type { StoredEvent, StreamFollower } from '../protocol/seams/event-store';

/** What a follower reads of its stream in one consistent view. */
export interface StreamPage {
  /** False once the stream is unknown: dropped, expired, or never written. */
  readonly known: boolean;
  readonly ended: boolean;
  /** The stored events after the sequence number asked for, in order. */
  readonly events: ReadonlyArray<StoredEvent & { readonly seq: number }>;
}

/** How a follower reaches its stream: its change notifications, and a read of what came after a sequence number. */
export interface StreamSource {
  /** Calls `changed` on every change of the stream; resolves, with how to stop, once it hears them. */
  listen(changed: () => void): Promise<() => Promise<void>>;
  read(afterSeq: number): Promise<StreamPage>;
}

/**
 * One `tail` of a stream kept in Redis. It listens to the stream's notifications first and only
 * then reads what is stored, so an event appended while it joins is either in that read or
 * announced after it; each read asks for what follows the last event delivered, so an event read
 * twice is delivered once. Reads never overlap: a notification heard during one makes the
 * follower read again when it is done.
 */
export class RedisStreamFollower {
  private stopped = false;
  private reading = false;
  private readAgain = false;
  private stopListening?: () => Promise<void>;

  constructor(
    private readonly source: StreamSource,
    private lastSeq: number,
    private readonly follower: StreamFollower,
    private readonly onStop: (self: RedisStreamFollower) => void,
  ) {}

  async start(): Promise<void> {
    let stop: () => Promise<void>;
    try {
      stop = await this.source.listen(() => void this.catchUp());
    } catch {
      // Redis unreachable: nothing could be heard, so the stream ends here; the client may resume again later.
      this.finish();
      return;
    }
    if (this.stopped) {
      await stop();
      return;
    }
    this.stopListening = stop;
    await this.catchUp();
  }

  /** Delivers what was stored since the last event delivered, and ends the follower once the stream is over. */
  async catchUp(): Promise<void> {
    if (this.stopped) return;
    if (this.reading) {
      this.readAgain = true;
      return;
    }
    this.reading = true;
    try {
      do {
        this.readAgain = false;
        const page = await this.source.read(this.lastSeq);
        for (const { seq, id, message } of page.events) {
          if (this.stopped) return;
          if (seq <= this.lastSeq) continue;
          this.lastSeq = seq;
          this.follower.event({ id, message });
        }
        if (!page.known || page.ended) {
          this.finish();
          return;
        }
      } while (this.readAgain && !this.stopped);
    } catch {
      // Redis away, or the follower failed: the store's periodic check reads again.
    } finally {
      this.reading = false;
    }
  }

  /** Delivers nothing more, and hears no more of the stream. */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.onStop(this);
    void this.stopListening?.().catch(() => undefined);
  }

  private finish(): void {
    if (this.stopped) return;
    this.stop();
    this.follower.end();
  }
}
