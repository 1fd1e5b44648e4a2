import { Agent, createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the proxy sent where: for specs that check a request really landed on another node. */
export interface Routed {
  readonly method: string;
  readonly upstream: number;
  /** The JSON-RPC method of a POST body, or `response` for the client's answer to the server. */
  readonly rpc?: string;
  /** The tool a `tools/call` names. */
  readonly tool?: string;
  /** The `mcp-session-id` the request named, if any. */
  readonly session?: string;
}

export interface RoundRobinProxyOptions {
  /**
   * Keep what was sent where in `routed` (default true: the cluster spec reads it). Off for a
   * long load run, whose record would grow without bound and parse every body.
   */
  readonly record?: boolean;
  /**
   * Reuse connections to the nodes (default false). Off, every request has a connection of its
   * own, so a request is sent again elsewhere only when no node can have received it (a node
   * killed mid-spec). On, as load balancers pool their upstream connections in production: for
   * the benchmark, where no node is killed and a connection per request would cost more than
   * the call.
   */
  readonly keepAlive?: boolean;
}

/** The response header that names the node (its index among the upstreams) that answered. */
export const UPSTREAM_HEADER = 'x-upstream';

/**
 * A round-robin HTTP proxy on a loopback port, in front of the cluster's nodes, as a load balancer
 * without sticky sessions is: each request goes to the next node, whatever session it names.
 * A node that refuses the connection (killed) is skipped for the next one; a request that
 * reached a node is never sent to another. Bodies and SSE streams pass through as they come,
 * with the node that answered named in `UPSTREAM_HEADER`, as balancers can add.
 *
 * One proxy for the cluster spec (`spec/cluster/support/cluster.ts`) and the benchmark's cluster
 * suite (`round-robin-proxy.server.ts`): it lives in the bench because the bench compiles only
 * its own folder, and the spec's build compiles whatever it imports.
 */
export class RoundRobinProxy {
  readonly routed: Routed[] = [];
  private next = 0;
  private server?: Server;
  private readonly record: boolean;
  private readonly agent: Agent | false;

  constructor(private readonly upstreams: readonly number[], options: RoundRobinProxyOptions = {}) {
    this.record = options.record ?? true;
    this.agent = options.keepAlive ? new Agent({ keepAlive: true }) : false;
  }

  async start(): Promise<string> {
    this.server = createServer(this.handle);
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/mcp`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    if (this.agent) this.agent.destroy();
  }

  /** Forwards one request: what `start()` serves, and what a host of its own may mount. */
  readonly handle = (req: IncomingMessage, res: ServerResponse): void => void this.forward(req, res);

  private async forward(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    // Each node once, from the next in turn: requests at once share the turn, not their retries.
    const first = this.next++;
    for (let tries = 0; tries < this.upstreams.length; tries++) {
      const index = (first + tries) % this.upstreams.length;
      if (await this.tryUpstream(index, req, body, res)) return;
    }
    res.writeHead(502).end();
  }

  /** False when the node refused the connection (the next one is tried); true once it answered. */
  private tryUpstream(index: number, req: IncomingMessage, body: Buffer, res: ServerResponse): Promise<boolean> {
    return new Promise((resolve) => {
      const upstream = request({
        host: '127.0.0.1', port: this.upstreams[index], method: req.method, path: req.url,
        // The client's Host header goes through, as load balancers pass it: the nodes check it
        // against DNS rebinding as they would behind one.
        headers: req.headers,
        agent: this.agent,
      }, (answer) => {
        if (this.record) {
          const session = req.headers['mcp-session-id'];
          this.routed.push({ method: req.method ?? '', upstream: index, ...rpcOf(body), ...(typeof session === 'string' ? { session } : {}) });
        }
        res.writeHead(answer.statusCode ?? 502, { ...answer.headers, [UPSTREAM_HEADER]: String(index) });
        answer.pipe(res);
        answer.on('error', () => res.destroy());
        res.on('close', () => answer.destroy());
        resolve(true);
      });
      upstream.on('error', (error: NodeJS.ErrnoException) => {
        if (!res.headersSent && error.code === 'ECONNREFUSED') return resolve(false);
        res.destroy();
        resolve(true);
      });
      upstream.end(body);
    });
  }
}

function rpcOf(body: Buffer): { rpc?: string; tool?: string } {
  if (body.length === 0) return {};
  try {
    const message = JSON.parse(body.toString('utf8')) as { method?: string; params?: { name?: string }; result?: unknown; error?: unknown };
    const rpc = message.method ?? ('result' in message || 'error' in message ? 'response' : undefined);
    return { rpc, tool: rpc === 'tools/call' ? message.params?.name : undefined };
  } catch {
    return {};
  }
}
