import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { RoundRobinProxy } from '../../../bench/servers/round-robin-proxy';
import { freePort } from '../../support/free-port';

/** One replica process. */
export interface ClusterNode {
  readonly name: string;
  readonly port: number;
  /** Kills it at once (SIGKILL): a node that dies mid-stream. */
  kill(): Promise<void>;
}

/**
 * `size` replicas of `cluster-node.js` on loopback ports, sharing the Redis at `redisUrl` under a
 * prefix of their own, behind a round-robin proxy: what a client sees is the proxy's URL.
 */
export class Cluster {
  readonly nodes: ClusterNode[] = [];
  proxy!: RoundRobinProxy;
  url!: string;
  private readonly children = new Set<ChildProcess>();

  constructor(private readonly redisUrl: string, private readonly prefix: string, private readonly size = 3) {}

  async start(): Promise<this> {
    const ports = await Promise.all(Array.from({ length: this.size }, () => freePort()));
    await Promise.all(ports.map((port, i) => this.startNode(i, port, `node-${String.fromCharCode(97 + i)}`)));
    this.proxy = new RoundRobinProxy(ports);
    this.url = await this.proxy.start();
    return this;
  }

  async stop(): Promise<void> {
    await this.proxy?.stop();
    await Promise.all([...this.children].map((child) => stopChild(child)));
  }

  private async startNode(index: number, port: number, name: string): Promise<void> {
    const child = spawn(process.execPath, [join(__dirname, 'cluster-node.js'), String(port), name], {
      env: { ...process.env, REDIS_URL: this.redisUrl, CLUSTER_PREFIX: this.prefix },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.children.add(child);
    child.once('exit', () => this.children.delete(child));
    await new Promise<void>((resolve, reject) => {
      let output = '';
      child.stdout!.on('data', (chunk) => {
        output += chunk;
        if (output.includes('ready ')) resolve();
      });
      child.stderr!.on('data', (chunk) => (output += chunk));
      child.once('exit', (code) => reject(new Error(`${name} exited with ${code} before serving: ${output}`)));
    });
    // By the proxy's upstream index, whichever node was ready first.
    this.nodes[index] = { name, port, kill: () => stopChild(child, 'SIGKILL') };
  }
}

function stopChild(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill(signal);
  });
}
