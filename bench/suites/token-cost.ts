import type { Running } from '../contenders';
import type { Call } from '../harness/dialects';
import { drive } from '../harness/load';
import { cpuMicros } from '../harness/process-cpu';
import type { TokenCost } from '../report/results';

/** How the token's cost is measured: this many alternating slices of each contender, this long each. */
export interface Slicing {
  readonly slices: number;
  readonly sliceSeconds: number;
}

/**
 * The server CPU a verified bearer token adds to a call, measured in pairs: the same call is
 * driven without a token and with one, at one server process serving both (`launchTokenPair`:
 * two processes of the same code differ by several microseconds a call, by their JIT and heap),
 * in short alternating slices (A B, B A, A B...), and each side's CPU time and answers are added
 * up over all its slices. The machine's speed drifts by a third over seconds here (a shared
 * host); alternating slices put the same drift on both sides, which rounds seconds apart do not.
 * Between slices the server only drains (finishes what it holds): a forced collection would make
 * the next slice's calls several times dearer. Undefined where /proc does not tell a process's
 * CPU time.
 */
export async function tokenCost(plain: Running, authed: Running, call: Call, slicing: Slicing, connections: number): Promise<TokenCost | undefined> {
  const sides = [{ running: plain, cpu: 0, answered: 0 }, { running: authed, cpu: 0, answered: 0 }];
  for (let slice = 0; slice < slicing.slices * 2; slice++) {
    // ABBA ordering: a linear drift within a pair falls on both sides alike.
    const side = sides[(slice + (Math.floor(slice / 2) % 2)) % 2];
    const before = cpuMicros(side.running.server.pid);
    const sample = await drive(side.running.prepared.get(call)!, { connections, seconds: slicing.sliceSeconds });
    const after = cpuMicros(side.running.server.pid);
    if (before === undefined || after === undefined) return undefined;
    await side.running.server.drain();
    side.cpu += after - before;
    side.answered += sample.answered;
  }
  const [without, withToken] = sides;
  if (without.answered === 0 || withToken.answered === 0) return undefined;
  return {
    withoutUs: without.cpu / without.answered,
    withUs: withToken.cpu / withToken.answered,
    slices: slicing.slices,
    sliceSeconds: slicing.sliceSeconds,
  };
}
