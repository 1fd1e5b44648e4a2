import type { JsonRpcMessage } from '../core/jsonrpc';
import { PhantomError } from '../core/errors';
import {
  DEFAULT_MAX_EVENTS_PER_STREAM, eventId, parseEventId, type EventStore, type StoredEvent, type StoredStream, type StreamFollower, type StreamRef,
} from '../protocol/seams/event-store';
import { APPEND, DROP, END, READ_AFTER } from './redis-event-scripts';
import { viaRedis } from './redis-failure';
import type { RedisLink } from './redis-link';
import { RedisStreamFollower, type StreamPage } from './redis-stream-follower';

/** Limits of the SSE event logs kept in Redis (options of `redis()`); every one has a default. */
export interface RedisEventStoreOptions {
  /** Events kept per stream; older ones are forgotten first (default `DEFAULT_MAX_EVENTS_PER_STREAM`). */
  readonly maxEventsPerStream?: number;
  /**
   * How long a stream stays after its last append or its end, in ms (default
   * `DEFAULT_EVENT_TTL_MS`): a client may resume it that long after it last heard of it.
   */
  readonly ttlMs?: number;
  /**
   * How often a follower reads its stream again without being told to, in ms (default
   * `DEFAULT_FOLLOWER_CHECK_MS`): what repairs a notification lost while the subscriber
   * connection was away (pub/sub is at most once), and ends the followers of a stream that
   * expired.
   */
  readonly followerCheckMs?: number;
}

/** How long a stream's events stay after its last append: 30 minutes, a session's default idle time. */
export const DEFAULT_EVENT_TTL_MS = 30 * 60 * 1000;
/** How often a follower reads again unprompted: every 10 s. */
export const DEFAULT_FOLLOWER_CHECK_MS = 10_000;

type Entry = [id: string, fields: string[]];

/**
 * SSE event logs in Redis, shared by every node: a stream written on one node can be resumed
 * (`after`) and followed (`tail`) on any other. Under the key prefix `P`, for a stream `S`:
 *
 * - `Pstream:{S}`: a hash of the stream's `session`, its `kind` (a standalone stream's), its last
 *   sequence number `seq` and `ended`;
 * - `Pstream:{S}:events`: a Redis stream of its last `maxEventsPerStream` events, entry id `0-<seq>`;
 * - channel `Pstream:{S}:changed`: published on each stored event, the end and the drop.
 *
 * Both keys expire `ttlMs` after the stream's last append or end. Event ids are `S.<seq>`, as in
 * memory; stream ids are unique across nodes, so event ids are too. (`{S}` is a hash tag: on
 * Redis Cluster a stream's keys share a slot, and streams spread over the cluster.)
 *
 * A follower listens to its stream's channel and reads what was stored since its last event on
 * each notification, so no node blocks a connection per follower.
 */
export class RedisEventStore implements EventStore {
  private readonly maxEvents: number;
  private readonly ttlMs: number;
  private readonly followerCheckMs: number;
  private readonly followers = new Set<RedisStreamFollower>();
  private checker?: NodeJS.Timeout;

  /** Made by {@link redis}, on the connections it shares between the stores and the bus. @hidden */
  constructor(private readonly connections: RedisLink, options: RedisEventStoreOptions = {}) {
    this.maxEvents = positive('maxEventsPerStream', options.maxEventsPerStream ?? DEFAULT_MAX_EVENTS_PER_STREAM);
    this.ttlMs = positive('ttlMs', options.ttlMs ?? DEFAULT_EVENT_TTL_MS);
    this.followerCheckMs = positive('followerCheckMs', options.followerCheckMs ?? DEFAULT_FOLLOWER_CHECK_MS);
  }

  async append(stream: StreamRef, message: JsonRpcMessage | null): Promise<string> {
    const seq = await viaRedis('Storing an event', () => APPEND.run(this.connections.commands, this.keys(stream.id), [
      stream.sessionId, message === null ? '' : JSON.stringify(message), this.maxEvents, this.ttlMs, this.channel(stream.id), stream.kind ?? '',
    ]));
    return eventId(stream.id, Number(seq));
  }

  async end(streamId: string): Promise<void> {
    await viaRedis('Ending an event stream', () => END.run(this.connections.commands, this.keys(streamId), [this.ttlMs, this.channel(streamId)]));
  }

  async streamOf(id: string): Promise<StoredStream | undefined> {
    const parsed = parseEventId(id);
    if (!parsed) return undefined;
    const [sessionId, kind, ended] = await viaRedis('Reading an event stream', () =>
      this.connections.commands.hmget(this.keys(parsed.streamId)[0], 'session', 'kind', 'ended'));
    if (sessionId === null) return undefined;
    return {
      id: parsed.streamId,
      sessionId,
      // Only a kind this store writes: anything else in the hash is not ours to pass on.
      ...(kind === 'standalone' ? { kind } : {}),
      ...(ended === null ? {} : { ended: true as const }),
    };
  }

  async after(id: string): Promise<StoredEvent[]> {
    const parsed = parseEventId(id);
    if (!parsed) return [];
    const page = await this.read(parsed.streamId, parsed.seq);
    return page.events.map(({ id: eventId, message }) => ({ id: eventId, message }));
  }

  tail(id: string, follower: StreamFollower): () => void {
    const parsed = parseEventId(id);
    if (!parsed) {
      follower.end();
      return () => undefined;
    }
    const { streamId, seq } = parsed;
    const tail = new RedisStreamFollower({
      listen: (changed) => this.connections.channels.listen(this.channel(streamId), changed),
      read: (afterSeq) => this.read(streamId, afterSeq),
    }, seq, follower, (stopped) => this.forget(stopped));
    this.followers.add(tail);
    this.checker ??= setInterval(() => {
      for (const each of this.followers) void each.catchUp();
    }, this.followerCheckMs).unref();
    void tail.start();
    return () => tail.stop();
  }

  async dropStream(streamId: string): Promise<void> {
    await viaRedis('Dropping an event stream', () => DROP.run(this.connections.commands, this.keys(streamId), [this.channel(streamId)]));
  }

  /** Streams followed from this store (for tests and leak checks). */
  get followerCount(): number {
    return this.followers.size;
  }

  private async read(streamId: string, afterSeq: number): Promise<StreamPage> {
    const [session, ended, entries] = await viaRedis('Reading an event stream', () =>
      READ_AFTER.run(this.connections.commands, this.keys(streamId), [afterSeq])) as [string | null, number, Entry[]];
    return {
      known: session !== null,
      ended: ended === 1,
      events: entries.map(([entryId, fields]) => {
        const seq = Number(entryId.slice(entryId.indexOf('-') + 1));
        return { seq, id: eventId(streamId, seq), message: JSON.parse(fields[1]) as JsonRpcMessage };
      }),
    };
  }

  private forget(follower: RedisStreamFollower): void {
    this.followers.delete(follower);
    if (this.followers.size === 0 && this.checker) {
      clearInterval(this.checker);
      this.checker = undefined;
    }
  }

  private keys(streamId: string): [record: string, events: string] {
    const record = `${this.connections.prefix}stream:{${streamId}}`;
    return [record, `${record}:events`];
  }

  private channel(streamId: string): string {
    return `${this.connections.prefix}stream:{${streamId}}:changed`;
  }
}

function positive(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value <= 0) throw new PhantomError('invalid_option', `RedisEventStore: ${name} must be a positive integer (got ${value})`);
  return value;
}
