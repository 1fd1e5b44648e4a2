/**
 * Where the framework reports its own trouble (a handler that threw, a lister that failed). It goes
 * to stderr by default: stdout may be the stdio transport's wire.
 */
export interface Diagnostics {
  /** A failure the server survived (a handler or a lister threw, a store call failed); `error` is the cause, when there is one. */
  error(message: string, error?: unknown): void;
  /**
   * Something the operator should see that the server did not fail at: a client's misbehaviour, a
   * dropped bus message. Those a client can cause at will are rate limited ({@link WarningRateLimit}).
   */
  warn(message: string): void;
  /** Routine lines asked for by the application (`RequestLoggingInterceptor`); `warn` takes them when absent. */
  info?(message: string): void;
  /**
   * What only someone tracing a client wants: a call that ended because its client left (its
   * session ended, it cancelled, it never answered an elicitation). Dropped when absent, as by
   * the default `STDERR_DIAGNOSTICS`.
   */
  debug?(message: string): void;
}

/**
 * The tsyringe token under which every server registers its `Diagnostics` in its container, so a
 * guard or interceptor can write where the server writes: `@inject(DIAGNOSTICS) diagnostics: Diagnostics`.
 */
export const DIAGNOSTICS = Symbol.for('phantom-mcp:diagnostics');

/** The default `Diagnostics`: one line per report on stderr, prefixed `[phantom-mcp]`, with the error's stack when there is one. */
export const STDERR_DIAGNOSTICS: Diagnostics = Object.freeze({
  info: (message: string) => {
    process.stderr.write(`[phantom-mcp] ${message}\n`);
  },
  error: (message: string, error?: unknown) => {
    process.stderr.write(`[phantom-mcp] ${message}${error === undefined ? '' : `: ${formatError(error)}`}\n`);
  },
  warn: (message: string) => {
    process.stderr.write(`[phantom-mcp] ${message}\n`);
  },
});

/** `Diagnostics` that drop every report: for specs, or when the application reports otherwise. */
export const SILENT_DIAGNOSTICS: Diagnostics = Object.freeze({ error: () => {}, warn: () => {}, info: () => {} });

function formatError(error: unknown): string {
  return error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
}

/** How many warnings of one kind a client can cause (`warningRateLimit`). */
export interface WarningRateLimit {
  /** Lines of one kind written per window (default 10). */
  readonly lines?: number;
  /** The window, in ms (default 60 000). */
  readonly windowMs?: number;
}

interface WarningWindow {
  readonly startedAt: number;
  written: number;
  suppressed: number;
  timer?: NodeJS.Timeout;
}

/**
 * Warnings a client can cause at will (a response to no request, sent in a loop): at most
 * `lines` of one kind per window go to the diagnostics; the rest are counted, and when the window
 * ends one line says how many were suppressed. Kinds are names fixed in the code, so the table
 * stays as small as the list of kinds.
 */
export class WarningThrottle {
  private readonly lines: number;
  private readonly windowMs: number;
  private readonly windows = new Map<string, WarningWindow>();

  constructor(private readonly diagnostics: Diagnostics, limit: WarningRateLimit = {}) {
    this.lines = limit.lines ?? 10;
    this.windowMs = limit.windowMs ?? 60_000;
  }

  warn(kind: string, message: string): void {
    const now = Date.now();
    let window = this.windows.get(kind);
    if (window && now - window.startedAt >= this.windowMs) window = this.close(kind, window);
    if (!window) this.windows.set(kind, (window = { startedAt: now, written: 0, suppressed: 0 }));
    if (window.written < this.lines) {
      window.written += 1;
      this.diagnostics.warn(message);
      return;
    }
    window.suppressed += 1;
    if (!window.timer) {
      const open = window;
      open.timer = setTimeout(() => this.close(kind, open), open.startedAt + this.windowMs - now);
      open.timer.unref();
    }
  }

  /** Ends a kind's window, reporting what it suppressed; `undefined`, so a new window starts. */
  private close(kind: string, window: WarningWindow): undefined {
    clearTimeout(window.timer);
    if (this.windows.get(kind) === window) this.windows.delete(kind);
    if (window.suppressed > 0) {
      this.diagnostics.warn(`${window.suppressed} similar messages suppressed (${kind}; at most ${this.lines} per ${this.windowMs} ms)`);
    }
    return undefined;
  }
}
