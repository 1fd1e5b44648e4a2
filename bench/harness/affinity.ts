import { execFileSync } from 'node:child_process';

/**
 * CPU affinity through `taskset` (util-linux), where there is one. Used by the stdio suite only:
 * a one-request-at-a-time ping-pong over pipes runs two to four times faster when the client and
 * the server happen to share a core (no cross-core wake-up per message) than when they do not, and
 * the scheduler decides that differently from run to run. Sharing one core on purpose measures
 * what a round trip costs in CPU, the same way every time.
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
