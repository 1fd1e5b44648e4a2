import { randomBytes, randomUUID } from 'node:crypto';

/** How many sign-in pages may wait at once, and for how long. */
export interface PendingAnswersOptions {
  /**
   * Pages waiting for an answer at once (default 100). Opening one more forgets the oldest,
   * whose tool hears `undefined`: a client that keeps calling the tool cannot pin memory.
   */
  readonly maxPending?: number;
  /** How long a page waits for its answer, in ms (default 10 minutes); then it is forgotten and its tool hears `undefined`. */
  readonly ttlMs?: number;
}

/** One page waiting for its answer. */
export interface PendingAnswer {
  readonly elicitationId: string;
  /** The CSRF token the page's form carries back: a POST without it is refused. */
  readonly token: string;
  /** What the page asks, as the tool wrote it (escaped by the page). */
  readonly message: string;
  /** The typed value, or `undefined` when the page expired, was forgotten, or the call ended first. */
  readonly answer: Promise<string | undefined>;
}

interface Entry {
  readonly pending: PendingAnswer;
  readonly settle: (value: string | undefined) => void;
}

export const PENDING_ANSWERS_DEFAULTS = { maxPending: 100, ttlMs: 10 * 60_000 } as const;

/**
 * What the users typed on the sign-in pages, kept on the server by elicitation id until the
 * waiting tool takes it: bounded in number and in time, and each answered once.
 */
export class PendingAnswers {
  private readonly entries = new Map<string, Entry>();
  private readonly maxPending: number;
  private readonly ttlMs: number;

  constructor(options: PendingAnswersOptions = {}) {
    this.maxPending = options.maxPending ?? PENDING_ANSWERS_DEFAULTS.maxPending;
    this.ttlMs = options.ttlMs ?? PENDING_ANSWERS_DEFAULTS.ttlMs;
  }

  /** A new page waiting for its answer; `signal` (the tool call's) forgets it when the call ends first. */
  open(message: string, signal?: AbortSignal): PendingAnswer {
    while (this.entries.size >= this.maxPending) this.settle(this.entries.keys().next().value as string, undefined);
    const elicitationId = randomUUID();
    let settle!: (value: string | undefined) => void;
    const answer = new Promise<string | undefined>((resolve) => (settle = resolve));
    const pending: PendingAnswer = { elicitationId, token: randomBytes(24).toString('base64url'), message, answer };
    const timer = setTimeout(() => this.settle(elicitationId, undefined), this.ttlMs);
    timer.unref();
    const onAbort = () => this.settle(elicitationId, undefined);
    signal?.addEventListener('abort', onAbort, { once: true });
    this.entries.set(elicitationId, {
      pending,
      settle: (value) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        settle(value);
      },
    });
    if (signal?.aborted) onAbort();
    return pending;
  }

  /** The page still waiting under this id; `undefined` for an unknown, answered or expired one. */
  find(elicitationId: string): PendingAnswer | undefined {
    return this.entries.get(elicitationId)?.pending;
  }

  /**
   * Hands `value` to the waiting tool (`undefined`: gives up) and forgets the page: an id is
   * answered once. False when no page waits under this id.
   */
  settle(elicitationId: string, value: string | undefined): boolean {
    const entry = this.entries.get(elicitationId);
    if (!entry) return false;
    this.entries.delete(elicitationId);
    entry.settle(value);
    return true;
  }

  get size(): number {
    return this.entries.size;
  }
}
