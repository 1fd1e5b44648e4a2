import { randomBytes } from 'node:crypto';
import { CLUSTER_SETUPS, launchCluster, type ClusterSetup, type RunningCluster } from '../contenders';
import { benchRedis, type BenchRedis } from '../harness/bench-redis';
import type { ElicitingClient } from '../harness/eliciting-client';
import { drive } from '../harness/load';
import { cpuMicros } from '../harness/process-cpu';
import { everyEntrant, interleave, type Entrant } from '../harness/rounds';
import { median, percentile } from '../harness/stats';
import type { Plan } from '../plan';
import { firstLine, millis, rate } from '../report/format';
import type { BenchResults, ClusterFigures, ClusterLoadSample, ClusterSetupId, Measured, RoundTripSample } from '../report/results';
import { rateFigures } from './load-entrant';
import type { SuiteContext } from './suite-context';

type ClusterResults = NonNullable<BenchResults['cluster']>;

/** What one setup measured in one round. */
interface ClusterSample {
  readonly load: ClusterLoadSample;
  readonly elicitation: RoundTripSample;
}

/**
 * Scale-out on one machine: one node without Redis, one node on Redis, and two nodes on one Redis,
 * each behind the same round-robin proxy (a process of its own), in interleaved rounds. Each
 * round drives the echo `tools/call` (throughput, latency, and where the CPU went: the nodes,
 * Redis, the proxy), then calls a tool that elicits, one call at a time, answering each
 * elicitation with a request of its own, which the proxy sends to the next node: with two nodes,
 * the other one. Nothing is pinned: the nodes, Redis, the proxy and the load generator share the
 * cores, as replicas on one machine do: each process's CPU per call is read apart (Redis's too when
 * the bench started it, or found the `REDIS_URL` one on this machine), so the serving side's cost
 * (the nodes and Redis) is known whatever the proxy and the generator took. Without a Redis (neither `REDIS_URL` nor a redis-server to
 * start) the suite is reported as unavailable, with the reason.
 */
export async function clusterSuite({ plan, progress, profiling }: SuiteContext): Promise<ClusterResults> {
  let redis: BenchRedis;
  try {
    progress.status('cluster: starting Redis…');
    redis = await benchRedis();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    progress.line(`cluster: unavailable: ${firstLine(reason)}`);
    return { unavailable: reason };
  }
  const setups: Partial<Record<ClusterSetupId, Measured<ClusterFigures>>> = {};
  const running: [ClusterSetup, RunningCluster][] = [];
  // Keys of this run only, whichever Redis: a REDIS_URL one may hold others' (they expire with the sessions).
  const run = `phantom-bench-${randomBytes(4).toString('hex')}`;
  try {
    for (const setup of CLUSTER_SETUPS) {
      progress.status(`cluster: starting ${setup.label}…`);
      const started = await launchCluster(setup, redis.url, `${run}:${setup.id}:`, profiling);
      if ('unavailable' in started) {
        setups[setup.id] = started;
        progress.line(`cluster: ${setup.label} is unavailable: ${firstLine(started.unavailable)}`);
      } else {
        running.push([setup, started]);
      }
    }
    const entrants = running.map(([setup, cluster]) => clusterEntrant(setup.label, cluster, setup.redis ? redis.pid : undefined, plan));
    const samples = await interleave('cluster', entrants, { rounds: plan.cluster.rounds, warmup: true }, progress, everyEntrant(showSample));
    running.forEach(([setup], i) => (setups[setup.id] = clusterFigures(samples[i])));
  } finally {
    await Promise.all(running.map(([, cluster]) => cluster.stop()));
    await redis.stop();
  }
  return { redis: process.env.REDIS_URL ? 'REDIS_URL' : 'own', redisCpuCounted: redis.pid !== undefined, setups };
}

/** One setup for a round: the echo load, then the elicitation round trips, each followed by a settle. */
function clusterEntrant(label: string, cluster: RunningCluster, redisPid: number | undefined, plan: Plan): Entrant<ClusterSample> {
  const { seconds, warmupSeconds, elicitationSeconds } = plan.cluster;
  let nextId = 1;
  return {
    label,
    run: async ({ warm, onTick }) => {
      const cpu = new CpuMeter(cluster, redisPid);
      const sample = await drive(cluster.echo, { connections: plan.connections, seconds: warm ? warmupSeconds : seconds, onTick });
      const load = { ...sample, ...cpu.perCall(sample.answered) };
      await settle(cluster);
      const elicitation = await roundTrips(cluster.asker, warm ? Math.min(warmupSeconds, elicitationSeconds) : elicitationSeconds, () => nextId++);
      await settle(cluster);
      return { load, elicitation };
    },
  };
}

/**
 * CPU time of every process of the setup over one load, each apart: the nodes added up, Redis
 * (when its PID is known), the proxy, and the load generator (this process). On a machine whose
 * cores they all share, the rate measures the whole lot; CPU per call tells each one's share.
 */
class CpuMeter {
  private readonly before: (number | undefined)[];

  constructor(private readonly cluster: RunningCluster, private readonly redisPid: number | undefined) {
    this.before = this.read();
  }

  perCall(answered: number): Pick<ClusterLoadSample, 'cpuPerRequestUs' | 'redisCpuPerRequestUs' | 'proxyCpuPerRequestUs' | 'generatorCpuPerRequestUs'> {
    const [nodes, redis, proxy, generator] = this.read().map((now, i) => (now === undefined || this.before[i] === undefined ? undefined : now - this.before[i]!));
    if (answered === 0 || nodes === undefined || proxy === undefined) return {};
    return {
      cpuPerRequestUs: nodes / answered,
      ...(redis === undefined ? {} : { redisCpuPerRequestUs: redis / answered }),
      proxyCpuPerRequestUs: proxy / answered,
      generatorCpuPerRequestUs: generator! / answered,
    };
  }

  /** [every node, Redis, the proxy, the generator], in microseconds. */
  private read(): (number | undefined)[] {
    const nodes = this.cluster.nodes.map((node) => cpuMicros(node.pid));
    const generator = process.cpuUsage();
    return [
      nodes.some((value) => value === undefined) ? undefined : nodes.reduce((sum, value) => sum! + value!, 0),
      this.redisPid === undefined ? undefined : cpuMicros(this.redisPid),
      cpuMicros(this.cluster.proxy.pid),
      generator.user + generator.system,
    ];
  }
}

/**
 * Calls the asking tool one call at a time for `seconds`, answering each elicitation, and keeps
 * how long each took. The proxy sends each request to the next node and nothing else goes
 * through it meanwhile, so with two nodes the call and its answer land on different nodes:
 * `crossNode` counts the round trips where they did, by the node the proxy names in each reply.
 */
async function roundTrips(asker: ElicitingClient, seconds: number, nextId: () => number): Promise<RoundTripSample> {
  const times: number[] = [];
  let crossNode = 0;
  let failed = 0;
  for (const until = performance.now() + seconds * 1000; performance.now() < until;) {
    try {
      const trip = await asker.ask(nextId());
      times.push(trip.ms);
      if (trip.crossNode) crossNode += 1;
    } catch {
      failed += 1;
    }
  }
  return { roundTrips: times.length, p50: percentile(times, 0.5), p99: percentile(times, 0.99), failed, crossNode };
}

/** Every process of the setup finishes what it holds and collects its garbage, before anything else is measured. */
async function settle(cluster: RunningCluster): Promise<void> {
  await Promise.all([...cluster.nodes, cluster.proxy].map((child) => child.settle()));
}

function clusterFigures(samples: readonly ClusterSample[]): ClusterFigures {
  const loads = samples.map((s) => s.load);
  const trips = samples.map((s) => s.elicitation);
  const redisCpu = loads.map((s) => s.redisCpuPerRequestUs).filter((us): us is number => us !== undefined);
  const proxyCpu = loads.map((s) => s.proxyCpuPerRequestUs).filter((us): us is number => us !== undefined);
  const generatorCpu = loads.map((s) => s.generatorCpuPerRequestUs).filter((us): us is number => us !== undefined);
  const every = (values: readonly number[]) => values.length === loads.length && values.length > 0;
  return {
    echo: {
      ...rateFigures(loads),
      ...(every(redisCpu) ? { redisCpuPerRequestUs: median(redisCpu) } : {}),
      ...(every(proxyCpu) ? { proxyCpuPerRequestUs: median(proxyCpu) } : {}),
      ...(every(generatorCpu) ? { generatorCpuPerRequestUs: median(generatorCpu) } : {}),
      rounds: loads,
    },
    elicitation: {
      p50: median(trips.map((s) => s.p50)),
      p99: median(trips.map((s) => s.p99)),
      roundTrips: trips.reduce((sum, s) => sum + s.roundTrips, 0),
      failed: trips.reduce((sum, s) => sum + s.failed, 0),
      crossNode: trips.reduce((sum, s) => sum + s.crossNode, 0),
      rounds: trips,
    },
  };
}

function showSample({ load, elicitation }: ClusterSample): string {
  const cpu = load.cpuPerRequestUs === undefined ? '' : ` ${Math.round(load.cpuPerRequestUs)} us CPU/req`
    + `${load.redisCpuPerRequestUs === undefined ? '' : ` +${Math.round(load.redisCpuPerRequestUs)} Redis`}`
    + `${load.proxyCpuPerRequestUs === undefined ? '' : ` +${Math.round(load.proxyCpuPerRequestUs)} proxy`}`
    + `${load.generatorCpuPerRequestUs === undefined ? '' : ` +${Math.round(load.generatorCpuPerRequestUs)} generator`}`;
  const failed = load.failed ? ` (${load.failed} failed)` : '';
  const trips = `elicitation p50 ${millis(elicitation.p50)} p99 ${millis(elicitation.p99)}${elicitation.failed ? ` (${elicitation.failed} failed)` : ''}`;
  return `${rate(load.rps)}/s p99 ${millis(load.p99)}${cpu}${failed}, ${trips}`;
}
