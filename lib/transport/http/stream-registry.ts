import type { HttpResponseLike } from './http-like.types';
import { uniqueId } from '../../core/unique-id';
import type { EventStore, StoredEvent, StoredStream, StreamFollower, StreamKind, StreamRef } from '../../protocol/seams/event-store';
import { messageEvent } from './sse-framing';
import { SseStream } from './sse-stream';
import type { UnreadLimit } from './unread-watch';

/** How long streams stay resumable and how many a session keeps (`HttpOptions`; defaults in `HTTP_DEFAULTS`). */
export interface StreamLimits {
  readonly retryMs: number;
  /** `HttpOptions.maxSseBufferBytes` and `sseStallTimeoutMs`. */
  readonly sseUnread: UnreadLimit;
  readonly maxStreamsPerSession: number;
  readonly finishedStreamGraceMs: number;
  readonly undeliveredStreamTtlMs: number;
}

/** Runs `task` once after `ms`; never keeps the process alive. Specs pass a fake clock. */
export type Schedule = (task: () => void, ms: number) => void;

const realTimers: Schedule = (task, ms) => void setTimeout(task, ms).unref();

/**
 * The SSE streams of every session this handler serves, and the event store behind them. A stream
 * id is unique across nodes and the store records each stream's session, so `Last-Event-ID` can
 * only resume a stream of the session that sends it, on this node or on any other that shares the
 * store: a stream going here is carried on here, a session's standalone stream going elsewhere is
 * taken over (this node writes it from then on), any other is followed in the store.
 */
export class StreamRegistry {
  /** Streams still going on this node, standalone ones included, by stream id. */
  private readonly live = new Map<string, SseStream>();
  /** Each session's standalone (GET) stream, while it is going. */
  private readonly standalone = new Map<string, SseStream>();
  /** Each session's streams still in the store, oldest first. */
  private readonly resumable = new Map<string, Set<string>>();
  /** Connections following a stream this node does not write. */
  private readonly followers = new Set<Follower>();

  constructor(private readonly store: EventStore, private readonly limits: StreamLimits, private readonly schedule: Schedule = realTimers) {}

  /** A new stream of a session (what a POST exchange opens when it switches to SSE). */
  open(sessionId: string): SseStream {
    return this.carry({ id: uniqueId(), sessionId });
  }

  /** Writes the stream `ref` on this node from now on: a new one, or one another node wrote until now. */
  private carry(ref: StreamRef): SseStream {
    const { sessionId } = ref;
    const stream = new SseStream(ref.id, sessionId, this.store, this.limits.retryMs, this.limits.sseUnread, ref.kind);
    this.live.set(stream.id, stream);
    let ids = this.resumable.get(sessionId);
    if (!ids) this.resumable.set(sessionId, (ids = new Set()));
    ids.add(stream.id);
    // A stream whose last event went out on a live connection is kept replayable for a short
    // grace (the connection may have died unnoticed), one that ended while the client was away
    // for longer (it should come back for its result), then each is forgotten.
    stream.onFinished = (delivered) => {
      this.live.delete(stream.id);
      if (this.standalone.get(sessionId) === stream) this.standalone.delete(sessionId);
      this.schedule(() => this.forget(ids, stream.id), delivered ? this.limits.finishedStreamGraceMs : this.limits.undeliveredStreamTtlMs);
    };
    // A session keeps at most this many streams replayable; the oldest go first.
    for (const oldest of ids) {
      if (ids.size <= this.limits.maxStreamsPerSession) break;
      if (!this.live.has(oldest)) this.forget(ids, oldest);
    }
    return stream;
  }

  /**
   * The session's standalone stream for a new GET: the one its client left, or a new one;
   * `undefined` while a connection still carries it (a session has one standalone stream).
   */
  standaloneOf(sessionId: string): SseStream | undefined {
    const current = this.standalone.get(sessionId);
    if (current?.connected) return undefined;
    if (current) return current;
    const stream = this.carry({ id: uniqueId(), sessionId, kind: STANDALONE });
    this.standalone.set(sessionId, stream);
    return stream;
  }

  /**
   * Carries the stream `lastEventId` belongs to on `res` (with `headers`) from just after that
   * event. False, with nothing written, when the store knows no such stream of this session. The
   * session's standalone stream, wherever it was written until now (unless it ended), is written
   * here from now on: `hold` makes this node its holder (resolving once messages sent from then on
   * come here), and the stream goes on under its own id, after what the client missed.
   */
  async resume(sessionId: string, lastEventId: string, res: HttpResponseLike, headers: Readonly<Record<string, string>>, hold: (stream: SseStream) => Promise<void>): Promise<boolean> {
    const ref = await this.store.streamOf(lastEventId);
    if (ref?.sessionId !== sessionId) return false;
    res.writeHead(200, headers);
    res.flushHeaders();
    // An ended stream is only replayed: its writer ended it (it shut down, or the client moved on).
    const stream = this.live.get(ref.id) ?? (ref.kind === STANDALONE && !ref.ended ? this.takeOver(ref) : undefined);
    if (!stream || stream.finished) {
      this.follow(res, lastEventId);
      return true;
    }
    // Held before the replay: a notification the client causes once it has seen what it missed reaches it.
    if (this.standalone.get(sessionId) === stream) await hold(stream);
    await stream.resume(res, lastEventId);
    return true;
  }

  /**
   * Another node holds the session's standalone stream now, `heldStreamId`: this node stops
   * carrying `stream`. The very stream taken over is let go, neither ended nor forgotten in the
   * store (the other node writes it); another one is ended, as the client moved on from it.
   */
  letGo(stream: SseStream, heldStreamId: string): void {
    if (this.standalone.get(stream.sessionId) === stream) this.standalone.delete(stream.sessionId);
    if (stream.id !== heldStreamId) {
      void stream.finish();
      return;
    }
    if (this.live.get(stream.id) === stream) this.live.delete(stream.id);
    this.resumable.get(stream.sessionId)?.delete(stream.id);
    // Its connection, if one is left, ends: the client resumes where the stream is written now.
    void stream.disconnect();
  }

  /** Ends the session's streams (its last events stored) and forgets them. */
  dropSession(sessionId: string): void {
    for (const streamId of this.resumable.get(sessionId) ?? []) {
      const stream = this.live.get(streamId);
      this.live.delete(streamId);
      if (stream) void stream.finish().then(() => this.drop(streamId));
      else this.drop(streamId);
    }
    this.resumable.delete(sessionId);
    this.standalone.delete(sessionId);
  }

  /** A session's standalone stream that another node wrote until now, written here from now on; the one this node had, if any, is let go once this one is held. */
  private takeOver(ref: StoredStream): SseStream {
    const stream = this.carry(ref);
    this.standalone.set(ref.sessionId, stream);
    return stream;
  }

  /** Ends every stream, once what was sent on it is stored and written, and every connection following one. */
  async finishAll(): Promise<void> {
    for (const follower of [...this.followers]) follower.end();
    await Promise.all([...this.live.values()].map((stream) => stream.finish()));
  }

  private follow(res: HttpResponseLike, lastEventId: string): void {
    const follower = new Follower(res, this.followers);
    follower.stop = this.store.tail(lastEventId, follower);
    if (follower.ended) return;
    if (res.destroyed) follower.end();
    else res.once('close', () => follower.end());
  }

  private forget(ids: Set<string>, streamId: string): void {
    ids.delete(streamId);
    this.drop(streamId);
  }

  /** Best effort: a store that fails to forget a stream keeps it until its own retention ends it; no request waits on this. */
  private drop(streamId: string): void {
    this.store.dropStream(streamId).catch(() => undefined);
  }
}

const STANDALONE: StreamKind = 'standalone';

/** One connection following a stream in the store: each event written as it comes, the connection ended with the stream. */
class Follower implements StreamFollower {
  stop?: () => void;
  ended = false;

  constructor(private readonly res: HttpResponseLike, private readonly followers: Set<Follower>) {
    followers.add(this);
  }

  event(event: StoredEvent): void {
    if (!this.res.destroyed && !this.res.writableEnded) this.res.write(messageEvent(event.message, event.id));
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.followers.delete(this);
    this.stop?.();
    this.res.end();
  }
}
