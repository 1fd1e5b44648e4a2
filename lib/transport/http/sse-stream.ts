import type { HttpResponseLike } from './http-like.types';
import type { JsonRpcMessage } from '../../core/jsonrpc';
import { eventId, parseEventId, type EventStore, type StreamKind, type StreamRef } from '../../protocol/seams/event-store';
import { messageEvent, primingEvent } from './sse-framing';
import { UNLIMITED, UnreadWatch, type UnreadLimit } from './unread-watch';

/**
 * One logical SSE stream. It outlives the HTTP connection that carries it: every event is kept
 * in the event store first, so a client that reconnects with `Last-Event-ID` can pick it up where
 * it left off, on a new connection (of this node, or of another that follows the store, or that
 * takes a session's standalone stream over).
 */
export class SseStream implements StreamRef {
  private writer?: HttpResponseLike;
  /** Watches the current connection's unread bytes. */
  private watch?: UnreadWatch;
  private queue: Promise<void> = Promise.resolve();
  private ended = false;
  /** The sequence number of the last event this stream stored or replayed, once it has one. */
  private lastSeq?: number;
  /** Told when the stream ends for good; `delivered` when a connection carried its last event. */
  onFinished?: (delivered: boolean) => void;

  constructor(
    readonly id: string,
    readonly sessionId: string,
    private readonly store: EventStore,
    private readonly retryMs: number,
    /** What a connection may leave unread (`HttpOptions.maxSseBufferBytes`, `sseStallTimeoutMs`). */
    private readonly unread: UnreadLimit = UNLIMITED,
    /** `'standalone'` for a session's GET stream. */
    readonly kind?: StreamKind,
  ) {}

  get finished(): boolean {
    return this.ended;
  }

  /** True while an HTTP connection carries the stream. */
  get connected(): boolean {
    return this.writer !== undefined;
  }

  /** Carries the stream on `res` (headers already written); the previous connection, if any, ends. */
  attach(res: HttpResponseLike): void {
    // Gone while the stream waited (a takeover's round trip): its 'close' came and went.
    if (res.destroyed) return;
    if (this.writer && this.writer !== res) this.writer.end();
    this.watch?.stop();
    const watch = new UnreadWatch(res, this.unread, () => this.drop(res));
    this.writer = res;
    this.watch = watch;
    res.once('close', () => {
      watch.stop();
      if (this.writer === res) this.detach();
    });
  }

  /** The priming event: an id and no data, so the client can resume even before a message. */
  prime(): Promise<void> {
    return this.enqueue(async () => {
      const id = await this.store.append(this, null);
      await this.catchUp(id);
      this.write(primingEvent(id, this.retryMs));
    });
  }

  send(message: JsonRpcMessage): Promise<void> {
    return this.enqueue(async () => {
      const id = await this.store.append(this, message);
      await this.catchUp(id);
      this.write(messageEvent(message, id));
    });
  }

  /**
   * Carries the stream on `res` from just after `lastEventId`: what the client missed is read
   * from the store and written in the stream's own queue, so nothing is sent twice or out of order.
   */
  resume(res: HttpResponseLike, lastEventId: string): Promise<void> {
    return this.enqueue(async () => {
      this.attach(res);
      this.seen(lastEventId);
      for (const event of await this.store.after(lastEventId)) {
        this.write(messageEvent(event.message, event.id));
        this.seen(event.id);
      }
    });
  }

  /**
   * Ends the stream for good once everything queued is stored and written (the store marks the
   * end, for a node following it); again, waits for that.
   */
  finish(): Promise<void> {
    return this.enqueue(async () => {
      if (this.ended) return;
      this.ended = true;
      await this.store.end(this.id).catch(() => undefined);
      const delivered = this.writer !== undefined && !this.writer.destroyed;
      this.writer?.end();
      this.detach();
      this.onFinished?.(delivered);
    });
  }

  /** Ends the current connection but not the stream: the client is expected to reconnect. */
  disconnect(): Promise<void> {
    return this.enqueue(async () => {
      this.writer?.end();
      this.detach();
    });
  }

  /**
   * Writes what the store holds between this stream's last event and `id`, its new one: events
   * another node appended to this stream before it let go of it (a standalone stream taken over
   * here), so that the connection carries the store's order. No read when nothing lies between.
   */
  private async catchUp(id: string): Promise<void> {
    const last = this.lastSeq;
    const seq = this.seen(id);
    if (last === undefined || seq === undefined || seq <= last + 1) return;
    for (const event of await this.store.after(eventId(this.id, last))) {
      const between = parseEventId(event.id)?.seq;
      if (between !== undefined && between < seq) this.write(messageEvent(event.message, event.id));
    }
  }

  /** Notes that the stream has reached event `id`; returns its sequence number. */
  private seen(id: string): number | undefined {
    const seq = parseEventId(id)?.seq;
    if (seq !== undefined && (this.lastSeq === undefined || seq > this.lastSeq)) this.lastSeq = seq;
    return seq;
  }

  /** Steps run one at a time, in order; a failed step (a store error) does not stop the next. */
  private enqueue(step: () => Promise<void>): Promise<void> {
    this.queue = this.queue.then(step).catch(() => undefined);
    return this.queue;
  }

  private write(chunk: string): void {
    const writer = this.writer;
    if (!writer || writer.writableEnded) return;
    this.watch?.write(chunk);
  }

  /**
   * A client that stopped reading: its connection is dropped rather than buffered for without
   * end; what it missed is in the store, for `Last-Event-ID`.
   */
  private drop(res: HttpResponseLike): void {
    if (this.writer === res) this.detach();
    res.destroy();
  }

  /**
   * No connection carries the stream any more. The watch is not stopped here: a connection ended
   * with a backlog is still watched until its client has read it or is dropped.
   */
  private detach(): void {
    this.writer = undefined;
    this.watch = undefined;
  }
}
