import { join } from 'node:path';
import { STDIO_CONTENDERS, type StdioContenderId } from '../contenders';
import { CALLS } from '../harness/dialects';
import { LineClient } from '../harness/line-client';
import { affinityOf, pin } from '../harness/affinity';
import { everyEntrant, interleave, type Entrant } from '../harness/rounds';
import { ServerProcess } from '../harness/server-process';
import { median } from '../harness/stats';
import { firstLine, rate } from '../report/format';
import type { BenchResults } from '../report/results';
import type { SuiteContext } from './suite-context';

type StdioResults = NonNullable<BenchResults['stdio']>;

const SHARED_CPU = '0';

/**
 * Round trips per second over stdio: the bench writes the echo `tools/call` to the server's
 * stdin, waits for the answer on its stdout, and sends the next one, for a bounded time. The
 * bench and the server share one CPU, so the figure is what a round trip costs in CPU.
 */
export async function stdioSuite({ plan, progress, profiling }: SuiteContext): Promise<StdioResults> {
  const out: StdioResults = {};
  const running: { id: StdioContenderId; server: ServerProcess; entrant: Entrant<number> }[] = [];
  // The bench and every stdio server share one core (see ../harness/affinity), where taskset exists.
  const ownAffinity = affinityOf(process.pid);
  const pinned = ownAffinity !== undefined && pin(process.pid, SHARED_CPU);
  try {
    for (const contender of STDIO_CONTENDERS) {
      progress.status(`stdio: starting ${contender.label}…`);
      let server: ServerProcess | undefined;
      try {
        server = await ServerProcess.start(contender.script, [], {
          pipes: true,
          profileDir: profiling.ids.has(contender.id) ? join(profiling.dir, contender.id) : undefined,
        });
        if (pinned) pin(server.pid, SHARED_CPU);
        const client = new LineClient(server.stdin, server.stdout);
        if (contender.initialize) await initialize(client);
        await echoOnce(client);
        running.push({ id: contender.id, server, entrant: roundTrips(contender.label, client, plan.stdio) });
      } catch (error) {
        await server?.stop();
        const reason = error instanceof Error ? error.message : String(error);
        out[contender.id] = { unavailable: reason };
        progress.line(`stdio: ${contender.label} is unavailable: ${firstLine(reason)}`);
      }
    }
    const samples = await interleave('stdio', running.map((r) => r.entrant), { rounds: plan.stdio.rounds, warmup: true }, progress,
      everyEntrant((rtps) => `${rate(rtps)} round trips/s`));
    running.forEach(({ id }, i) => (out[id] = { rtps: median(samples[i]), rounds: samples[i], sharedCore: pinned }));
  } finally {
    await Promise.all(running.map(({ server }) => server.stop()));
    if (pinned) pin(process.pid, ownAffinity);
  }
  return out;
}

function roundTrips(label: string, client: LineClient, timed: { seconds: number; warmupSeconds: number }): Entrant<number> {
  return {
    label,
    run: async ({ warm, onTick }) => {
      const { method, params } = CALLS.echo;
      const started = performance.now();
      const until = started + (warm ? timed.warmupSeconds : timed.seconds) * 1000;
      let done = 0;
      let second = 0;
      for (let now = started; now < until; now = performance.now()) {
        await client.request(method, params);
        done += 1;
        if (now - started > (second + 1) * 1000) onTick(++second);
      }
      return done / ((performance.now() - started) / 1000);
    },
  };
}

async function initialize(client: LineClient): Promise<void> {
  const answer = await client.request('initialize', {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'phantom-bench', version: '1.0.0' },
  });
  if (!answer.result) throw new Error(`initialize failed: ${JSON.stringify(answer.error)}`);
  client.notify('notifications/initialized');
}

async function echoOnce(client: LineClient): Promise<void> {
  const answer = await client.request(CALLS.echo.method, CALLS.echo.params);
  if (!CALLS.echo.verify(answer.result)) throw new Error(`tools/call was not answered as expected: ${JSON.stringify(answer)}`);
}
