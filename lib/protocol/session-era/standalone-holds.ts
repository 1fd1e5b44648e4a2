import type { Diagnostics } from '../../core/diagnostics';
import { uniqueId } from '../../core/unique-id';
import type { ServerEvents } from '../events/server-events';
import type { StandaloneStream } from '../in-flight';
import type { SessionBus, SessionMessage } from '../seams/session-bus';

/** What the holds need: the bus, this node's subscription to a session, where sinks attach, where failures go. */
export interface StandaloneHoldsDeps {
  readonly bus: Pick<SessionBus, 'publish'>;
  readonly events: Pick<ServerEvents, 'attach' | 'handOver'>;
  /** Subscribes this node to the session's messages; resolves once that is live. */
  readonly listen: (sessionId: string) => Promise<void>;
  readonly diagnostics: Diagnostics;
}

type Moved = Extract<SessionMessage, { kind: 'standalone-moved' }>;

/** One session's standalone stream as this node knows it. */
interface Holding {
  /** The stream this node was last asked to hold. */
  wanted: StandaloneStream;
  /** The one it delivers to, while it holds the session's standalone stream. */
  current?: StandaloneStream;
  /** Its announcements not heard back yet. */
  announced: number;
}

/**
 * Which node holds each session's standalone stream: the one whose announcement
 * ('standalone-moved') went last on the bus. A node holds it from when it hears its own
 * announcement come back, and lets it go when it hears another node's. Every node hears the bus
 * in one order, so a message that went before an announcement is the old holder's to deliver and
 * one after it the new holder's: each reaches the stream once, wherever the client reconnects.
 */
export class StandaloneHolds {
  /** This node, in its announcements. */
  private readonly holder = uniqueId();
  private readonly holdings = new Map<string, Holding>();

  constructor(private readonly deps: StandaloneHoldsDeps) {}

  /**
   * Makes this node the holder of the session's standalone stream, `stream`: it announces that on
   * the bus, and delivers to it from when it hears the announcement back. Resolves once the
   * announcement is on its way: a message sent from then on, from any node, comes after it, so
   * reaches `stream`. When the bus cannot carry it, this node holds the stream at once (a node
   * that held it may then deliver too, which beats a stream that nobody feeds).
   */
  async hold(sessionId: string, stream: StandaloneStream): Promise<void> {
    let holding = this.holdings.get(sessionId);
    if (holding) holding.wanted = stream;
    else this.holdings.set(sessionId, (holding = { wanted: stream, announced: 0 }));
    holding.announced += 1;
    const listening = await this.deps.listen(sessionId).then(() => true, (error: unknown) => this.failed(error));
    const sent = await this.deps.bus.publish(sessionId, { kind: 'standalone-moved', holder: this.holder, streamId: stream.streamId })
      .then(() => true, (error: unknown) => this.failed(error));
    if (!listening || !sent) this.heard(sessionId, { kind: 'standalone-moved', holder: this.holder, streamId: stream.streamId });
  }

  /** @internal An announcement heard on the bus: this node's own (it holds the stream now) or another's (it lets it go). */
  heard(sessionId: string, { holder, streamId }: Moved): void {
    const holding = this.holdings.get(sessionId);
    if (!holding) return;
    if (holder === this.holder) this.took(sessionId, holding);
    else this.lost(sessionId, holding, streamId);
  }

  /** The session ended: nothing of it is held here any more. */
  forget(sessionId: string): void {
    this.holdings.delete(sessionId);
  }

  private took(sessionId: string, holding: Holding): void {
    // Never below zero: an announcement reported unsent may still have gone out.
    holding.announced = Math.max(0, holding.announced - 1);
    const { wanted, current } = holding;
    // Another stream of the session that this node carried: the client moved on to `wanted`.
    if (current && current.streamId !== wanted.streamId) current.released(wanted.streamId);
    holding.current = wanted;
    this.deps.events.attach(sessionId, wanted.send);
  }

  private lost(sessionId: string, holding: Holding, streamId: string): void {
    const { current, wanted } = holding;
    if (current) {
      this.deps.events.handOver(sessionId);
      holding.current = undefined;
      // Kept when this node is taking that same stream back: its own announcement comes later, and wins.
      if (holding.announced === 0 || current.streamId !== wanted.streamId) current.released(streamId);
    }
    if (holding.announced === 0) this.holdings.delete(sessionId);
  }

  private failed(error: unknown): false {
    this.deps.diagnostics.error('standalone stream handover not announced', error);
    return false;
  }
}
