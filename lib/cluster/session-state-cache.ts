import type { SessionState } from '../protocol/seams/session-state';

/** Sessions whose parsed state one node keeps: a bound, so that the cache never grows with the sessions Redis holds. */
export const DEFAULT_PARSED_SESSIONS = 512;
/**
 * The longest JSON whose parsed state is kept (a session's is a few hundred bytes): what a client
 * declares at `initialize` is its own to size, and must not pin a node's memory.
 */
export const MAX_KEPT_JSON = 4096;

interface Parsed {
  /** The JSON Redis answered, as stored (lastActiveAt left out). */
  readonly json: string;
  readonly state: SessionState;
}

/**
 * The state a node last parsed of each session, handed out again while Redis answers the same
 * JSON and the same lastActiveAt: a session-era call then reads its session in one script and
 * parses nothing (a session's JSON changes only when the session does; its lastActiveAt at most
 * once per touch interval). Callers never mutate what `load` gives (the seam's rule, which the
 * in-memory store relies on too), so one object can serve them all. Once `limit` sessions are
 * kept, the one parsed longest ago goes (a session still in use is parsed again, at worst once per
 * touch interval anyway).
 */
export class SessionStateCache {
  private readonly parsed = new Map<string, Parsed>();

  constructor(private readonly limit = DEFAULT_PARSED_SESSIONS) {}

  /** The state of `json` with `lastActiveAt`, parsed only when it differs from the one kept. */
  stateOf(id: string, json: string, lastActiveAt: number): SessionState {
    const kept = this.parsed.get(id);
    if (kept !== undefined && kept.json === json && kept.state.lastActiveAt === lastActiveAt) return kept.state;
    const state: SessionState = { ...(JSON.parse(json) as SessionState), lastActiveAt };
    if (json.length <= MAX_KEPT_JSON) this.keep(id, { json, state });
    else if (kept !== undefined) this.parsed.delete(id);
    return state;
  }

  /** Forgets a session that ended (deleted, expired). */
  forget(id: string): void {
    this.parsed.delete(id);
  }

  private keep(id: string, parsed: Parsed): void {
    this.parsed.delete(id);
    if (this.parsed.size >= this.limit) this.parsed.delete(this.parsed.keys().next().value!);
    this.parsed.set(id, parsed);
  }
}
