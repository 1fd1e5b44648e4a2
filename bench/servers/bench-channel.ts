/**
 * The admin channel between the bench and a contender's process: the IPC pipe that `fork` opens.
 * It carries no MCP traffic, so the contender's own endpoint stays exactly what a client sees.
 */

/** Where the bearer-token contender with `--pair` serves the same endpoint without a token. */
export const PLAIN_PATH = '/plain';

/** What the bench can ask a running contender. */
export type Question = 'memory' | 'drain' | 'settle' | 'stop';

export interface Ask {
  readonly kind: 'ask';
  readonly id: number;
  readonly question: Question;
}

export type Report =
  | { readonly kind: 'ready'; readonly url?: string; readonly detail?: unknown }
  | { readonly kind: 'answer'; readonly id: number; readonly value?: unknown; readonly error?: string }
  | { readonly kind: 'failed'; readonly message: string };

/** Memory after a full collection, in bytes (`process.memoryUsage()` less the noise of garbage). */
export interface MemorySample {
  readonly rss: number;
  readonly heapUsed: number;
  readonly external: number;
}

export interface ContenderHooks {
  /** Resolves once no request is being handled (work left over from the last round is done). */
  readonly drain?: () => Promise<void>;
  /** Releases what the contender holds before the process exits (so a CPU profile is written). */
  readonly stop?: () => Promise<void>;
}

/** Announces the contender as ready and answers the bench until it says stop. */
export function serveBench(ready: { url?: string; detail?: unknown }, hooks: ContenderHooks = {}): void {
  const answers: Record<Question, () => Promise<unknown>> = {
    memory: measureMemory,
    // Finish the requests in hand, then collect garbage now: a contender's deferred work (its
    // backlog, V8 shrinking a heap it no longer needs) must not run on the next contender's time.
    // Only finish the requests in hand: a forced collection makes the next second of calls
    // several times dearer here (measured: 4,600/s against 18,000/s after it), so a measure of
    // CPU per call in short slices must not force one.
    drain: async () => {
      await hooks.drain?.();
    },
    settle: async () => {
      await hooks.drain?.();
      collectGarbage();
    },
    stop: async () => {
      await hooks.stop?.();
      setImmediate(() => process.exit(0));
    },
  };
  process.on('message', (message: Ask) => {
    if (message?.kind !== 'ask') return;
    void answers[message.question]().then(
      (value) => send({ kind: 'answer', id: message.id, value: value ?? null }),
      (error: unknown) => send({ kind: 'answer', id: message.id, error: String(error) }),
    );
  });
  // The bench going away must not leave a server behind.
  process.on('disconnect', () => process.exit(0));
  send({ kind: 'ready', ...ready });
}

/** Runs a contender's start-up; a failure is reported to the bench instead of hanging it. */
export function runContender(main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    send({ kind: 'failed', message: error instanceof Error ? error.stack ?? error.message : String(error) });
    process.exitCode = 1;
    process.disconnect?.();
  });
}

export function argValue(name: string, fallback?: string): string {
  const at = process.argv.indexOf(`--${name}`);
  const value = at === -1 ? fallback : process.argv[at + 1];
  if (value === undefined) throw new Error(`missing --${name}`);
  return value;
}

export function argNumber(name: string, fallback?: number): number {
  const value = Number(argValue(name, fallback === undefined ? undefined : String(fallback)));
  if (!Number.isInteger(value) || value < 0) throw new Error(`--${name} must be a whole number`);
  return value;
}

function send(report: Report): void {
  process.send?.(report);
}

async function measureMemory(): Promise<MemorySample> {
  // Two passes with a turn of the loop between, so finalizers and weak references settle.
  collectGarbage();
  await new Promise((resolve) => setImmediate(resolve));
  collectGarbage();
  const { rss, heapUsed, external } = process.memoryUsage();
  return { rss, heapUsed, external };
}

function collectGarbage(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('the contender must run with --expose-gc');
  gc();
}
