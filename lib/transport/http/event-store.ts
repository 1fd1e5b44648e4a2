import type { JsonRpcMessage } from '../../core/jsonrpc';

/**
 * Where SSE events are kept for resumption: a client that lost a stream reconnects with
 * `Last-Event-ID` and receives what it missed. Event ids name their stream, so one id is enough
 * to find where to resume.
 */
export interface EventStore {
  /** Stores a message sent on `streamId` (`null`: the priming event, which replays nothing); returns its event id. */
  append(streamId: string, message: JsonRpcMessage | null): Promise<string>;
  /** The stream an event id belongs to, if the store knows it. */
  streamOf(eventId: string): Promise<string | undefined>;
  /** The events of the same stream after `eventId`, in order. */
  after(eventId: string): Promise<Array<{ id: string; message: JsonRpcMessage }>>;
  /** Forgets a stream's events (its session ended). */
  dropStream(streamId: string): Promise<void>;
}

/** The embedded default: the last `perStream` events of each stream, in memory. */
export class InMemoryEventStore implements EventStore {
  private readonly streams = new Map<string, Array<{ seq: number; message: JsonRpcMessage }>>();
  private readonly counters = new Map<string, number>();

  constructor(private readonly perStream = 1000) {}

  async append(streamId: string, message: JsonRpcMessage | null): Promise<string> {
    const seq = (this.counters.get(streamId) ?? 0) + 1;
    this.counters.set(streamId, seq);
    if (message !== null) {
      const events = this.streams.get(streamId) ?? [];
      events.push({ seq, message });
      if (events.length > this.perStream) events.shift();
      this.streams.set(streamId, events);
    }
    return eventId(streamId, seq);
  }

  async streamOf(id: string): Promise<string | undefined> {
    const parsed = parseEventId(id);
    return parsed && this.counters.has(parsed.streamId) ? parsed.streamId : undefined;
  }

  async after(id: string): Promise<Array<{ id: string; message: JsonRpcMessage }>> {
    const parsed = parseEventId(id);
    if (!parsed) return [];
    return (this.streams.get(parsed.streamId) ?? [])
      .filter((event) => event.seq > parsed.seq)
      .map((event) => ({ id: eventId(parsed.streamId, event.seq), message: event.message }));
  }

  async dropStream(streamId: string): Promise<void> {
    this.streams.delete(streamId);
    this.counters.delete(streamId);
  }
}

export function eventId(streamId: string, seq: number): string {
  return `${streamId}.${seq}`;
}

export function parseEventId(id: string): { streamId: string; seq: number } | undefined {
  const dot = id.lastIndexOf('.');
  if (dot <= 0) return undefined;
  const seq = Number(id.slice(dot + 1));
  return Number.isSafeInteger(seq) && seq >= 0 ? { streamId: id.slice(0, dot), seq } : undefined;
}
