import autocannon from 'autocannon';
import type { Prepared } from './dialects';

export interface LoadOptions {
  readonly connections: number;
  /** Run for this long; requests still unanswered at the end are dropped with their connections. */
  readonly seconds?: number;
  /** Or send exactly this many requests and wait for every answer (nothing is left behind). */
  readonly amount?: number;
  /** Called about once a second while the load runs (the progress line). */
  readonly onTick?: (elapsedSeconds: number) => void;
}

/** One timed run against one contender. Latencies in milliseconds. */
export interface LoadSample {
  /** Successful answers per second. */
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  /** Connection errors, timeouts and non-2xx answers; a sound run has none. */
  readonly failed: number;
  /** Answers in the run (2xx). */
  readonly answered: number;
  /** The server's CPU time per answer, in microseconds, where /proc tells it. */
  readonly cpuPerRequestUs?: number;
  /**
   * The load generator's own CPU time over the run's wall time (this process: autocannon runs in
   * it): 1 is one core busy all the time. Near 1 on a core of its own, the generator is the limit,
   * and requests per second say more about it than about the server.
   */
  readonly generatorCpuShare: number;
}

/**
 * Drives one prepared call with autocannon on keep-alive connections, each with one request in
 * flight, for a bounded time or number of requests. Every request gets a fresh JSON-RPC id.
 */
export async function drive(prepared: Prepared, options: LoadOptions): Promise<LoadSample> {
  let nextId = 1;
  const settings: autocannon.Options = {
    url: prepared.url,
    method: 'POST',
    headers: { ...prepared.headers },
    connections: options.connections,
    pipelining: 1,
    ...(options.amount === undefined ? { duration: options.seconds } : { amount: options.amount }),
    timeout: 60,
    // How often autocannon checks whether the run is over; its default (1 s) would round every
    // run up to whole seconds.
    sampleInt: 100,
    requests: [{
      setupRequest: (request) => {
        request.body = prepared.body(nextId++);
        return request;
      },
    }],
  };
  const started = performance.now();
  const generatorBefore = process.cpuUsage();
  let lastAnswer = started;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(settings, (error, finished) => (error ? reject(error) : resolve(finished)));
    instance.on('response', () => void (lastAnswer = performance.now()));
    let ticks = 0;
    if (options.onTick) instance.on('tick', () => options.onTick!(++ticks));
  });
  const generator = process.cpuUsage(generatorBefore);
  const wallUs = (performance.now() - started) * 1000;
  return {
    // Over the time answers were coming in, not the time autocannon took to notice the end.
    rps: result['2xx'] / Math.max(1e-3, (lastAnswer - started) / 1000),
    p50: result.latency.p50,
    p99: result.latency.p99,
    failed: result.errors + result.non2xx,
    answered: result['2xx'],
    generatorCpuShare: (generator.user + generator.system) / Math.max(1, wallUs),
  };
}
