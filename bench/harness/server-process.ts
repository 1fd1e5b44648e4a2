import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import type { Ask, MemorySample, Question, Report } from '../servers/bench-channel';

export interface SpawnOptions {
  /** Give the process stdin/stdout pipes (stdio contenders); otherwise they are closed. */
  readonly pipes?: boolean;
  /** Write a V8 CPU profile of the process into this folder when it stops. */
  readonly profileDir?: string;
}

const SERVERS = join(__dirname, '..', 'servers');
const READY_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 10_000;

/**
 * A contender running in its own process (so the load generator and the server never share an
 * event loop), reached over the admin channel of `../servers/bench-channel`.
 */
export class ServerProcess {
  private nextAsk = 1;
  private readonly waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();

  private constructor(
    private readonly child: ChildProcess,
    /** The contender's MCP endpoint, for HTTP contenders. */
    readonly url: string | undefined,
    /** What a probe reported when ready (start-up timings). */
    readonly detail: unknown,
  ) {
    child.on('message', (report: Report) => {
      if (report.kind !== 'answer') return;
      const waiter = this.waiting.get(report.id);
      this.waiting.delete(report.id);
      if (report.error !== undefined) waiter?.reject(new Error(report.error));
      else waiter?.resolve(report.value);
    });
    child.once('exit', (code, signal) => {
      for (const waiter of this.waiting.values()) waiter.reject(new Error(`the server process exited (${signal ?? code})`));
      this.waiting.clear();
    });
  }

  /** Starts `servers/<script>.js` with `args` and waits until it says it is ready. */
  static start(script: string, args: readonly string[] = [], options: SpawnOptions = {}): Promise<ServerProcess> {
    const execArgv = ['--expose-gc', ...(options.profileDir ? ['--cpu-prof', `--cpu-prof-dir=${options.profileDir}`] : [])];
    const child = fork(join(SERVERS, `${script}.js`), [...args], {
      execArgv,
      stdio: [options.pipes ? 'pipe' : 'ignore', options.pipes ? 'pipe' : 'ignore', 'inherit', 'ipc'],
    });
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => fail(`did not start within ${READY_TIMEOUT_MS / 1000} s`), READY_TIMEOUT_MS);
      const fail = (why: string) => {
        clearTimeout(timer);
        child.kill('SIGKILL');
        reject(new Error(`${script} ${args.join(' ')}: ${why}`));
      };
      child.once('exit', (code, signal) => fail(`exited before it was ready (${signal ?? code})`));
      child.once('error', (error) => fail(error.message));
      child.on('message', function onReport(report: Report) {
        if (report.kind === 'failed') return fail(report.message);
        if (report.kind !== 'ready') return;
        clearTimeout(timer);
        child.removeAllListeners('exit');
        child.removeAllListeners('error');
        child.off('message', onReport);
        resolve(new ServerProcess(child, report.url, report.detail));
      });
    });
  }

  get pid(): number {
    return this.child.pid!;
  }

  get stdin(): Writable {
    return this.child.stdin!;
  }

  get stdout(): Readable {
    return this.child.stdout!;
  }

  memory(): Promise<MemorySample> {
    return this.ask('memory') as Promise<MemorySample>;
  }

  /** Waits until the contender has answered every request in hand. */
  drain(): Promise<void> {
    return this.ask('drain') as Promise<void>;
  }

  /** Resolves once the contender has finished every request it still holds, and collected its garbage. */
  settle(): Promise<void> {
    return this.ask('settle') as Promise<void>;
  }

  /** Stops the process politely (a CPU profile is only written on a clean exit), then firmly. */
  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.ask('stop').catch(() => undefined);
    const timer = setTimeout(() => this.child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
  }

  private ask(question: Question): Promise<unknown> {
    const id = this.nextAsk++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.child.send({ kind: 'ask', id, question } satisfies Ask);
    });
  }
}
