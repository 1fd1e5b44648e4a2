import autocannon from 'autocannon';
import type { Prepared } from './dialects';

export interface LoadOptions {
  readonly connections: number;
  readonly seconds: number;
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
}

/**
 * Drives one prepared call with autocannon on keep-alive connections, each with one request in
 * flight, for a bounded time. Every request gets a fresh JSON-RPC id.
 */
export async function drive(prepared: Prepared, options: LoadOptions): Promise<LoadSample> {
  let nextId = 1;
  const settings: autocannon.Options = {
    url: prepared.url,
    method: 'POST',
    headers: { ...prepared.headers },
    connections: options.connections,
    pipelining: 1,
    duration: options.seconds,
    timeout: 60,
    requests: [{
      setupRequest: (request) => {
        request.body = prepared.body(nextId++);
        return request;
      },
    }],
  };
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(settings, (error, finished) => (error ? reject(error) : resolve(finished)));
    let ticks = 0;
    if (options.onTick) instance.on('tick', () => options.onTick!(++ticks));
  });
  return {
    rps: result['2xx'] / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failed: result.errors + result.non2xx,
  };
}
