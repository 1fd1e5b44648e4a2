import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';

/**
 * CPU affinity through `taskset` (util-linux), where there is one. Two uses:
 *
 * - HTTP suites (`CoreSplit`): the load generator (this process) on one core and every server
 *   under test on the other, so that neither steals the other's CPU, and a server's CPU time per
 *   call is what it costs on a core of its own.
 * - The stdio suite: a one-request-at-a-time ping-pong over pipes runs two to four times faster
 *   when the client and the server happen to share a core (no cross-core wake-up per message) than
 *   when they do not, and the scheduler decides that differently from run to run. Sharing one core
 *   on purpose measures what a round trip costs in CPU, the same way every time.
 */
export function affinityOf(pid: number): string | undefined {
  try {
    return execFileSync('taskset', ['-cp', String(pid)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).split(':').pop()!.trim();
  } catch {
    return undefined;
  }
}

/** Pins `pid` (all its threads) to the CPUs in `list` ("0", "0,1"); false where taskset is missing. */
export function pin(pid: number, list: string): boolean {
  try {
    execFileSync('taskset', ['-a', '-cp', list, String(pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** The generator's core and the servers' core of a `CoreSplit`. */
export const GENERATOR_CPU = '0';
export const SERVER_CPU = '1';

/**
 * The load generator on `GENERATOR_CPU`, each server it is given on `SERVER_CPU`, for as long as
 * the split is held; nothing pinned (and `pinned` false) without taskset or with one core. Processes
 * forked while it is held inherit the generator's core until `server` moves them.
 */
export class CoreSplit {
  private constructor(private readonly own: string | undefined, readonly pinned: boolean) {}

  static hold(): CoreSplit {
    const own = affinityOf(process.pid);
    const pinned = own !== undefined && availableParallelism() >= 2 && pin(process.pid, GENERATOR_CPU);
    return new CoreSplit(own, pinned);
  }

  /** Moves a server under test (all its threads) to the servers' core. */
  server(pid: number): void {
    if (this.pinned) pin(pid, SERVER_CPU);
  }

  /** Gives this process back the CPUs it had. */
  release(): void {
    if (this.pinned && this.own !== undefined) pin(process.pid, this.own);
  }
}
