import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';

/**
 * A `ServerResponse` stand-in that records what is written: enough of one for the SSE streams,
 * the registry and the request guards. `hangUp()` is the client going away.
 */
export class FakeResponse extends EventEmitter {
  status?: number;
  headers: Record<string, string> = {};
  readonly chunks: string[] = [];
  headersSent = false;
  writableEnded = false;
  destroyed = false;
  /** A client that stopped reading: what is written stays buffered (`writableLength` grows). */
  stalled = false;
  writableLength = 0;

  setHeader(name: string, value: string): this {
    this.headers[name.toLowerCase()] = value;
    return this;
  }

  writeHead(status: number, headers: Record<string, string> | string[] = {}): this {
    this.status = status;
    const pairs = Array.isArray(headers) ? pairsOf(headers) : Object.entries(headers);
    for (const [name, value] of pairs) this.headers[name.toLowerCase()] = String(value);
    this.headersSent = true;
    return this;
  }

  flushHeaders(): void {
    this.headersSent = true;
  }

  write(chunk: string): boolean {
    if (this.writableEnded) throw new Error('write after end');
    this.chunks.push(chunk);
    if (this.stalled) this.writableLength += Buffer.byteLength(chunk);
    return !this.stalled;
  }

  end(chunk?: string): this {
    if (chunk !== undefined) this.write(chunk);
    if (!this.writableEnded) {
      this.writableEnded = true;
      this.emit('close');
    }
    return this;
  }

  /** Node's `destroy()`: the connection is dropped with what is buffered. */
  destroy(): this {
    this.hangUp();
    return this;
  }

  hangUp(): void {
    this.destroyed = true;
    this.emit('close');
  }

  /** Everything written, as one string. */
  get text(): string {
    return this.chunks.join('');
  }

  /** The `data:` payloads written, parsed (priming events left out). */
  get messages(): unknown[] {
    return this.text.split('\n\n').flatMap((event) => event.split('\n').filter((line) => line.startsWith('data: ') && line.length > 6))
      .map((line) => JSON.parse(line.slice(6)));
  }

  /** Typed as what the code under test takes. */
  get asResponse(): ServerResponse {
    return this as unknown as ServerResponse;
  }
}

function pairsOf(flat: string[]): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  for (let i = 0; i < flat.length; i += 2) pairs.push([flat[i], flat[i + 1]]);
  return pairs;
}
