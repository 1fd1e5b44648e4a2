import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';

/** The Redis the cluster suite's nodes share. */
export interface BenchRedis {
  readonly url: string;
  /**
   * The redis-server's process, whose CPU time is counted per call: the one the bench started, or
   * the one `REDIS_URL` names when it runs on this machine and could be found; none otherwise.
   */
  readonly pid?: number;
  /** Stops the redis-server the bench started (by its PID); leaves a `REDIS_URL` one alone. */
  stop(): Promise<void>;
}

/** Debian's package installs it here; `REDIS_SERVER` names another. */
const BINARY = process.env.REDIS_SERVER ?? '/usr/bin/redis-server';
const START_TIMEOUT_MS = 10_000;

/**
 * The Redis named by `REDIS_URL`, else a redis-server of the bench's own on a free loopback port,
 * persistence off (no RDB snapshot, no AOF: nothing the run writes touches the disk), stopped by
 * its PID when the suite ends. Rejects with the reason when neither can be had, which the suite
 * reports as its row's "unavailable".
 */
export async function benchRedis(): Promise<BenchRedis> {
  const url = process.env.REDIS_URL;
  if (url) return { url, pid: localRedisPid(url), stop: async () => undefined };
  const port = await freePort();
  const child = spawn(BINARY, [
    '--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'yes', '--loglevel', 'warning',
  ], { stdio: ['ignore', 'pipe', 'pipe'] });
  await ready(child, port);
  // A run that fails on its way out must not leave the server behind.
  const orphan = () => child.kill('SIGKILL');
  process.once('exit', orphan);
  return {
    url: `redis://127.0.0.1:${port}`,
    pid: child.pid,
    stop: async () => {
      process.off('exit', orphan);
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * The PID of the redis-server listening on `url`'s loopback port, found by the title Redis gives
 * its process (`redis-server 127.0.0.1:6391`, `redis-server *:6379`); undefined when the URL is not
 * on this machine, there is no /proc, or no process has that title. A Redis behind a config file
 * with another title is not found, and its CPU is then reported as not counted.
 */
function localRedisPid(url: string): number | undefined {
  let port: string;
  try {
    const parsed = new URL(url);
    if (!['127.0.0.1', 'localhost', '[::1]', '::1'].includes(parsed.hostname)) return undefined;
    port = parsed.port || '6379';
  } catch {
    return undefined;
  }
  const titled = new RegExp(`^redis-server (127\\.0\\.0\\.1|localhost|\\*|0\\.0\\.0\\.0|::1|\\[::1\\]|::|\\[::\\]):${port}\\b`);
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return undefined;
  }
  for (const pid of pids) {
    try {
      if (titled.test(readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim())) return Number(pid);
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return undefined;
}

/** Resolves once the port takes connections; rejects with the server's output if it exits first. */
function ready(child: ChildProcess, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    const finish = (error?: Error) => {
      clearInterval(poll);
      clearTimeout(timer);
      child.removeAllListeners('exit');
      child.removeAllListeners('error');
      if (error) {
        child.kill('SIGKILL');
        reject(error);
      } else resolve();
    };
    const timer = setTimeout(() => finish(new Error(`${BINARY} did not listen on port ${port} within ${START_TIMEOUT_MS / 1000} s: ${output.trim()}`)), START_TIMEOUT_MS);
    const poll = setInterval(() => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.end();
        finish();
      });
      socket.once('error', () => socket.destroy());
    }, 20);
    child.stdout!.on('data', (chunk) => (output += chunk));
    child.stderr!.on('data', (chunk) => (output += chunk));
    child.once('error', (error: NodeJS.ErrnoException) => finish(new Error(`no Redis: REDIS_URL is not set and ${BINARY} cannot be run (${error.code ?? error.message}); install redis-server or set REDIS_URL`)));
    child.once('exit', (code) => finish(new Error(`${BINARY} exited with ${code}: ${output.trim()}`)));
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}
