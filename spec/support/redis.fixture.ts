import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { freePort } from './free-port';

/** A Redis server a spec talks to. */
export interface RedisInstance {
  readonly url: string;
  readonly port: number;
  /** Stops the server (a spec's own only; the shared one is the runner's). */
  stop(): Promise<void>;
  /** Starts it again on the same port, empty (a spec's own only): the "Redis restarted" fault. */
  start(): Promise<void>;
}

const BINARY = process.env.REDIS_SERVER ?? 'redis-server';

/** Why no Redis can be had here, or undefined when one can. */
export function redisUnavailable(): string | undefined {
  if (process.env.REDIS_URL) return undefined;
  const probe = spawnSync(BINARY, ['--version'], { encoding: 'utf8' });
  return probe.error || probe.status !== 0
    ? `no Redis: REDIS_URL is not set and ${BINARY} cannot be run (${probe.error?.message ?? probe.stderr.trim()}); apt-get install redis-server, or set REDIS_URL`
    : undefined;
}

/**
 * A redis-server of the spec's own on a free loopback port, persistence off, stopped by its PID.
 * For the specs that stop or restart Redis on purpose; the others use `sharedRedis()`.
 */
export async function ownRedis(): Promise<RedisInstance> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const instance: RedisInstance = {
    url: `redis://127.0.0.1:${port}`,
    port,
    start: async () => {
      if (child) return;
      child = await startServer(port);
    },
    stop: async () => {
      const running = child;
      child = undefined;
      if (!running || running.exitCode !== null) return;
      const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
      running.kill('SIGKILL');
      await exited;
    },
  };
  await instance.start();
  stopAtExit.add(instance);
  return instance;
}

let shared: Promise<RedisInstance> | undefined;

/**
 * The Redis most specs share: the one `REDIS_URL` names (`.ci/run` starts it), else one
 * redis-server of this run's own, started on first use and stopped when the run ends. Specs
 * keep apart by key prefix, never by flushing.
 */
export function sharedRedis(): Promise<RedisInstance> {
  shared ??= (async () => {
    const url = process.env.REDIS_URL;
    if (!url) return ownRedis();
    const notOurs = async () => { throw new Error('the shared Redis of REDIS_URL is not the spec\'s to stop or start'); };
    return { url, port: Number(new URL(url).port || 6379), stop: notOurs, start: notOurs };
  })();
  return shared;
}

/**
 * In a `describe`: skips its specs, saying why, when no Redis can be had (neither `REDIS_URL` nor
 * a redis-server binary); the only skip the suite allows, and never a silent one.
 */
export function requireRedis(): void {
  before(function () {
    const why = redisUnavailable();
    if (why) {
      process.stderr.write(`      skipped: ${why}\n`);
      this.skip();
    }
  });
}

const stopAtExit = new Set<RedisInstance>();
after(async () => {
  await Promise.all([...stopAtExit].map((instance) => instance.stop().catch(() => undefined)));
});

async function startServer(port: number): Promise<ChildProcess> {
  const child = spawn(BINARY, [
    '--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'yes', '--loglevel', 'warning',
  ], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.unref();
  await new Promise<void>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`redis-server on port ${port} did not start: ${output}`)), 10_000);
    const poll = setInterval(() => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => { socket.end(); clearInterval(poll); clearTimeout(timer); resolve(); });
      socket.once('error', () => socket.destroy());
    }, 20);
    child.stdout!.on('data', (chunk) => (output += chunk));
    child.stderr!.on('data', (chunk) => (output += chunk));
    child.once('exit', (code) => { clearInterval(poll); clearTimeout(timer); reject(new Error(`redis-server exited with ${code}: ${output}`)); });
  });
  child.removeAllListeners('exit');
  // The server must not keep the test run alive: `after` stops it, and so does the run's end.
  (child.stdout as unknown as { unref?: () => void }).unref?.();
  (child.stderr as unknown as { unref?: () => void }).unref?.();
  return child;
}
