import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the proxy sent where: for specs that check a request really landed on another node. */
export interface Routed {
  readonly method: string;
  readonly upstream: number;
  /** The JSON-RPC method of a POST body, or `response` for the client's answer to the server. */
  readonly rpc?: string;
  /** The tool a `tools/call` names. */
  readonly tool?: string;
}

/**
 * A round-robin HTTP proxy on a loopback port, in front of the cluster's nodes, as a load balancer
 * without sticky sessions is: each request goes to the next node, whatever session it names.
 * A node that refuses the connection (killed) is skipped for the next one; a request that
 * reached a node is never sent to another. Bodies and SSE streams pass through as they come.
 */
export class RoundRobinProxy {
  readonly routed: Routed[] = [];
  private next = 0;
  private server?: Server;

  constructor(private readonly upstreams: readonly number[]) {}

  async start(): Promise<string> {
    this.server = createServer((req, res) => void this.forward(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/mcp`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

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
        headers: { ...req.headers, host: `127.0.0.1:${this.upstreams[index]}` },
        // A connection of its own: a kept-alive one may be reset by a node that is gone, and a
        // request may only be sent again elsewhere when no node can have received it.
        agent: false,
      }, (answer) => {
        this.routed.push({ method: req.method ?? '', upstream: index, ...rpcOf(body) });
        res.writeHead(answer.statusCode ?? 502, answer.headers);
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
