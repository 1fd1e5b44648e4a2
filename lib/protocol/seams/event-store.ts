import type { JsonRpcMessage } from '../../core/jsonrpc';

/**
 * An SSE stream as the event store knows it: its id, unique across nodes, the session it belongs
 * to, and whether it is the session's standalone (GET) stream, which outlives the node writing it:
 * a client that resumes it on another node makes that node its writer.
 */
export interface StreamRef {
  readonly id: string;
  readonly sessionId: string;
  /** `'standalone'` for the session's standalone stream; absent for a request's stream. */
  readonly kind?: StreamKind;
}

/** The kinds of stream the store tells apart (a request's stream has none). */
export type StreamKind = 'standalone';

/** A stream as `streamOf` finds it: `ended` once its writer marked its end (it is replayed, never written again). */
export interface StoredStream extends StreamRef {
  readonly ended?: true;
}

/** A message kept for resumption, with the event id it went out under. */
export interface StoredEvent {
  readonly id: string;
  readonly message: JsonRpcMessage;
}

/** What follows a stream (`EventStore#tail`) hears. */
export interface StreamFollower {
  /** The next event of the stream: each once, in order. */
  event(event: StoredEvent): void;
  /** Nothing follows: the stream ended, was dropped, or is unknown. Heard at most once, last. */
  end(): void;
}

/**
 * Where SSE events are kept for resumption: a client that lost a stream reconnects with
 * `Last-Event-ID` and receives what it missed. Event ids name their stream, so one id is enough
 * to find where to resume, and the store knows each stream's session, so a client can only resume
 * its own. A stream may be resumed on another node than the one writing it: that node follows it
 * with `tail` until it ends, which is why the writer marks the end in the store.
 */
export interface EventStore {
  /**
   * Stores a message sent on `stream` (`null`: the priming event, which replays nothing); returns
   * its event id. Events are numbered in the order appended, whichever node appends them. The
   * stream's session and kind are the ones its first append gave.
   */
  append(stream: StreamRef, message: JsonRpcMessage | null): Promise<string>;
  /** Marks the stream ended (its last event is in): its followers hear `end`. It stays replayable until dropped. */
  end(streamId: string): Promise<void>;
  /** The stream an event id belongs to, with its session and kind and whether it ended, if the store knows it. */
  streamOf(eventId: string): Promise<StoredStream | undefined>;
  /** The events of the same stream after `eventId`, in order. */
  after(eventId: string): Promise<StoredEvent[]>;
  /**
   * Follows the stream of `eventId` from just after it: the stored events first, then each one
   * appended later, in order and once each, then `end` when the stream ends or is dropped (at
   * once for an ended or unknown stream). The follower may be called before `tail` returns.
   * Returns how to stop following.
   */
  tail(eventId: string, follower: StreamFollower): () => void;
  /** Forgets a stream's events (its session ended, or nobody will resume it); its followers hear `end`. */
  dropStream(streamId: string): Promise<void>;
}

/** How many events of one stream the in-memory store keeps, unless told otherwise: the last 1,000. */
export const DEFAULT_MAX_EVENTS_PER_STREAM = 1000;

/** Options of `InMemoryEventStore`. */
export interface InMemoryEventStoreOptions {
  /** Events kept per stream; older ones are forgotten first (default `DEFAULT_MAX_EVENTS_PER_STREAM`). */
  readonly maxEventsPerStream?: number;
}

interface StreamLog {
  readonly ref: StreamRef;
  seq: number;
  ended: boolean;
  readonly events: Array<{ readonly seq: number; readonly message: JsonRpcMessage }>;
  readonly followers: Set<StreamFollower>;
}

/** The embedded default: the last `maxEventsPerStream` events of each stream, in memory, for every handler of the process that shares it. */
export class InMemoryEventStore implements EventStore {
  private readonly streams = new Map<string, StreamLog>();
  private readonly maxEvents: number;

  constructor(options: InMemoryEventStoreOptions = {}) {
    this.maxEvents = options.maxEventsPerStream ?? DEFAULT_MAX_EVENTS_PER_STREAM;
  }

  async append(stream: StreamRef, message: JsonRpcMessage | null): Promise<string> {
    let log = this.streams.get(stream.id);
    if (!log) {
      // A copy: the caller's object (a live stream) is not kept alive by the store.
      const ref: StreamRef = stream.kind === undefined ? { id: stream.id, sessionId: stream.sessionId } : { id: stream.id, sessionId: stream.sessionId, kind: stream.kind };
      log = { ref: Object.freeze(ref), seq: 0, ended: false, events: [], followers: new Set() };
      this.streams.set(stream.id, log);
    }
    // Numbered at once, with no wait in between: handlers sharing the store never give one number twice.
    log.seq += 1;
    const id = eventId(stream.id, log.seq);
    if (message !== null && !log.ended) {
      log.events.push({ seq: log.seq, message });
      if (log.events.length > this.maxEvents) log.events.shift();
      for (const follower of log.followers) follower.event({ id, message });
    }
    return id;
  }

  async end(streamId: string): Promise<void> {
    const log = this.streams.get(streamId);
    if (!log || log.ended) return;
    log.ended = true;
    endAll(log);
  }

  async streamOf(id: string): Promise<StoredStream | undefined> {
    const parsed = parseEventId(id);
    const log = parsed && this.streams.get(parsed.streamId);
    if (!log) return undefined;
    return log.ended ? { ...log.ref, ended: true } : log.ref;
  }

  async after(id: string): Promise<StoredEvent[]> {
    const parsed = parseEventId(id);
    const log = parsed && this.streams.get(parsed.streamId);
    return log ? backlog(log, parsed.seq) : [];
  }

  tail(id: string, follower: StreamFollower): () => void {
    const parsed = parseEventId(id);
    const log = parsed && this.streams.get(parsed.streamId);
    if (!log) return ended(follower);
    for (const event of backlog(log, parsed.seq)) follower.event(event);
    if (log.ended) return ended(follower);
    log.followers.add(follower);
    return () => log.followers.delete(follower);
  }

  async dropStream(streamId: string): Promise<void> {
    const log = this.streams.get(streamId);
    if (!log) return;
    this.streams.delete(streamId);
    endAll(log);
  }

  /** Streams the store holds (for tests and leak checks). */
  get streamCount(): number {
    return this.streams.size;
  }
}

function backlog(log: StreamLog, afterSeq: number): StoredEvent[] {
  const events: StoredEvent[] = [];
  for (const event of log.events) if (event.seq > afterSeq) events.push({ id: eventId(log.ref.id, event.seq), message: event.message });
  return events;
}

function endAll(log: StreamLog): void {
  const followers = [...log.followers];
  log.followers.clear();
  for (const follower of followers) follower.end();
}

function ended(follower: StreamFollower): () => void {
  follower.end();
  return () => undefined;
}

/** The id of a stream's `seq`th event: it names its stream, so one id is enough to resume (shared by every event store). */
export function eventId(streamId: string, seq: number): string {
  return `${streamId}.${seq}`;
}

/** The stream and sequence number an event id names, or undefined for an id no event store gives out. */
export function parseEventId(id: string): { streamId: string; seq: number } | undefined {
  const dot = id.lastIndexOf('.');
  if (dot <= 0) return undefined;
  const seq = Number(id.slice(dot + 1));
  return Number.isSafeInteger(seq) && seq >= 0 ? { streamId: id.slice(0, dot), seq } : undefined;
}
