import type { Exchange } from '../in-flight';

/** Where the end of one URL elicitation is announced: on the request's own exchange while it is open, else to its session. */
export interface UrlElicitationTarget {
  readonly sessionId: string;
  readonly exchange: Exchange;
}

/** URL flows the user never finishes must not pile up: beyond this, the oldest are forgotten first. */
export const MAX_TRACKED_URL_ELICITATIONS = 10_000;

/**
 * The URL elicitations this node sent, by elicitation id, until `notifyElicitationComplete` or
 * their session's end. They hold live exchanges, so they stay on the node that sent them; the end
 * of one reaches that node over the bus.
 */
export class UrlElicitations {
  private readonly targets = new Map<string, UrlElicitationTarget>();

  constructor(private readonly limit = MAX_TRACKED_URL_ELICITATIONS) {}

  track(elicitationId: string, target: UrlElicitationTarget): void {
    if (this.targets.size >= this.limit) this.targets.delete(this.targets.keys().next().value as string);
    this.targets.set(elicitationId, target);
  }

  /** The target of `elicitationId`, forgotten as it is handed out (a flow ends once). */
  take(elicitationId: string): UrlElicitationTarget | undefined {
    const target = this.targets.get(elicitationId);
    this.targets.delete(elicitationId);
    return target;
  }

  /** Forgets the elicitations of a session that ended. */
  forgetSession(sessionId: string): void {
    for (const [id, target] of this.targets) if (target.sessionId === sessionId) this.targets.delete(id);
  }

  get size(): number {
    return this.targets.size;
  }
}
