import type { Readable, Writable } from 'node:stream';
import type { JsonRpcBatchResponse, JsonRpcMessage } from '../../core/jsonrpc';
import { MalformedMessageError, type MessageTransport } from './message-transport';

/** Options of `StdioTransport`; every one has a default. */
export interface StdioOptions {
  /** Where messages are read from (default `process.stdin`). */
  readonly input?: Readable;
  /** Where messages are written (default `process.stdout`): nothing else may write there. */
  readonly output?: Writable;
  /** Longest line accepted, in bytes (default 4 MiB); a longer one is dropped as malformed. */
  readonly maxLineBytes?: number;
}

/**
 * MCP over stdio: one compact JSON message per line on stdout, read from stdin. stdout carries
 * nothing else (the framework logs to stderr). End of input closes the transport, and so does an
 * output the client has closed (EPIPE): nobody can read the answers any more.
 */
export class StdioTransport implements MessageTransport {
  onmessage?: (message: unknown) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private readonly input: Readable;
  private readonly output: Writable;
  private readonly maxLineBytes: number;
  private buffered: Buffer[] = [];
  private bufferedBytes = 0;
  private skipping = false;
  private closed = false;
  private closeNotified = false;

  constructor(options: StdioOptions = {}) {
    this.input = options.input ?? process.stdin;
    this.output = options.output ?? process.stdout;
    this.maxLineBytes = options.maxLineBytes ?? 4 * 1024 * 1024;
  }

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.once('end', this.onEnd);
    this.input.once('error', this.onInputError);
    // Without a listener, a write to a closed pipe (EPIPE) is an uncaught error that ends the process.
    this.output.on('error', this.onOutputError);
    this.input.resume();
  }

  /**
   * Not `async`: a round trip on a pipe waits for every turn of the loop it takes, and most writes
   * are done when `write` returns; what cannot be serialised or written still rejects rather than throws.
   */
  send(message: JsonRpcMessage | JsonRpcBatchResponse): Promise<void> {
    if (this.closed) return SENT;
    try {
      return this.output.write(`${JSON.stringify(message)}\n`) ? SENT : this.drained();
    } catch (error) {
      // JSON that cannot carry the message, or an output whose write throws in the caller's frame.
      return Promise.reject(error);
    }
  }

  /** A full pipe drains, or it closes: either way the sender goes on. */
  private drained(): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = () => {
        this.output.off('drain', done);
        this.output.off('close', done);
        resolve();
      };
      this.output.once('drain', done);
      this.output.once('close', done);
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stopReading();
  }

  private stopReading(): void {
    this.input.off('data', this.onData);
    this.input.off('end', this.onEnd);
    this.input.off('error', this.onInputError);
    this.input.pause();
    if (this.closeNotified) return;
    this.closeNotified = true;
    this.onclose?.();
  }

  /**
   * A line that lies whole in the chunk is parsed straight from it, with no copy or slice of the
   * chunk (the usual case: a client writes a message and waits); the ends of lines that span
   * chunks are gathered until their newline.
   */
  private readonly onData = (chunk: Buffer | string): void => {
    const data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    let start = 0;
    for (let newline = data.indexOf(0x0a); newline !== -1; newline = data.indexOf(0x0a, start)) {
      if (this.bufferedBytes === 0 && !this.skipping) this.wholeLine(data, start, newline);
      else {
        this.append(data.subarray(start, newline));
        this.flushLine();
      }
      start = newline + 1;
    }
    if (start < data.length) this.append(start === 0 ? data : data.subarray(start));
  };

  /** The line `data[start, end)`, read in one piece: what `append` and `flushLine` make of it. */
  private wholeLine(data: Buffer, start: number, end: number): void {
    const length = end - start;
    if (length === 0) return;
    if (length > this.maxLineBytes) return void this.onerror?.(this.tooLong());
    if (length === 1 && data[start] === 0x0d) return;
    this.parse(data.toString('utf8', start, end));
  }

  private append(part: Buffer): void {
    if (this.skipping || part.length === 0) return;
    if (this.bufferedBytes + part.length > this.maxLineBytes) {
      this.buffered = [];
      this.bufferedBytes = 0;
      this.skipping = true;
      this.onerror?.(this.tooLong());
      return;
    }
    this.buffered.push(part);
    this.bufferedBytes += part.length;
  }

  private flushLine(): void {
    const wasSkipping = this.skipping;
    const line = this.buffered.length === 1 ? this.buffered[0] : Buffer.concat(this.buffered);
    this.buffered = [];
    this.bufferedBytes = 0;
    this.skipping = false;
    if (wasSkipping || isBlank(line)) return;
    this.parse(line.toString('utf8'));
  }

  private parse(text: string): void {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.onerror?.(new MalformedMessageError('A line was not valid JSON'));
      return;
    }
    this.onmessage?.(value);
  }

  private tooLong(): MalformedMessageError {
    return new MalformedMessageError(`A line longer than ${this.maxLineBytes} bytes was dropped`);
  }

  /** End of input: nothing more will arrive, but answers to what did may still go out. */
  private readonly onEnd = (): void => {
    this.stopReading();
  };

  private readonly onInputError = (error: Error): void => {
    this.onerror?.(error);
    void this.close();
  };

  /**
   * The output failed: end the session. EPIPE (the client closed its end) is an ordinary way to
   * leave, like the end of input, so only other errors are reported. The listener stays, so that
   * a later error cannot become uncaught either.
   */
  private readonly onOutputError = (error: NodeJS.ErrnoException): void => {
    if (error.code !== 'EPIPE') this.onerror?.(error);
    void this.close();
  };
}

/** What `send` returns when the line is written: nothing to wait for. */
const SENT: Promise<void> = Promise.resolve();

/** An empty line, or one holding only the carriage return of a CRLF ending. */
function isBlank(line: Buffer): boolean {
  return line.length === 0 || (line.length === 1 && line[0] === 0x0d);
}
