import type { Readable, Writable } from 'node:stream';

/**
 * A JSON-RPC client over a pair of pipes, one message per line, one request at a time: what a
 * desktop client does with a stdio server, reduced to the round trip.
 */
export class LineClient {
  private buffered = '';
  private waiting?: { id: number; resolve: (message: { result?: unknown; error?: unknown }) => void };
  private nextId = 1;

  constructor(private readonly input: Writable, output: Readable) {
    output.setEncoding('utf8');
    output.on('data', (chunk: string) => this.receive(chunk));
  }

  /** Sends a request and resolves with its answer (notifications and other lines are skipped). */
  request(method: string, params: Record<string, unknown>): Promise<{ result?: unknown; error?: unknown }> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.waiting = { id, resolve };
      this.input.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  }

  notify(method: string): void {
    this.input.write(`${JSON.stringify({ jsonrpc: '2.0', method })}\n`);
  }

  private receive(chunk: string): void {
    this.buffered += chunk;
    for (let newline = this.buffered.indexOf('\n'); newline !== -1; newline = this.buffered.indexOf('\n')) {
      const line = this.buffered.slice(0, newline);
      this.buffered = this.buffered.slice(newline + 1);
      const message = JSON.parse(line) as { id?: number; result?: unknown; error?: unknown };
      if (this.waiting && message.id === this.waiting.id) {
        const { resolve } = this.waiting;
        this.waiting = undefined;
        resolve(message);
      }
    }
  }
}
