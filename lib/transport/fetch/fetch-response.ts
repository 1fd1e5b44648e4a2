import type { HttpResponseLike } from '../http/http-like.types';

/**
 * Headers a web handler leaves to its host, which owns the connection (HTTP/2 forbids them; the
 * `Connection: close` the Node path asks for is the host's call here).
 */
const HOST_OWNED = new Set(['connection', 'keep-alive', 'transfer-encoding']);

/** Statuses whose `Response` cannot have a body. */
const NO_BODY = new Set([101, 204, 205, 304]);

const encoder = new TextEncoder();

/** The body's queue is measured in bytes against this mark: `writableLength` is what lies beyond it. */
const BODY_BUFFER = 64 * 1024;

/**
 * What the HTTP transport writes, turned into a web `Response`: with its whole body when the
 * answer is ended before anything is flushed (JSON, a refusal), or with a streamed body from the
 * moment an SSE stream starts (headers flushed or a first chunk written), into which later chunks
 * go as they are written. `response` settles as soon as the headers are known, not when a stream
 * ends. The client cancelling the body, or aborting the request before that, is the connection
 * closing on Node: `destroyed`, and `close`.
 */
export class FetchResponse implements HttpResponseLike {
  headersSent = false;
  destroyed = false;
  writableEnded = false;
  /** Settles with the `Response` once its headers are known. */
  readonly response: Promise<Response>;
  private status = 200;
  private readonly headers = new Headers();
  private controller?: ReadableStreamDefaultController<Uint8Array>;
  private answered = false;
  private closed = false;
  private readonly closeListeners: Array<() => void> = [];
  private settle!: (response: Response) => void;

  /** Bytes enqueued on the body that its reader has not taken yet. */
  get writableLength(): number {
    const free = this.controller?.desiredSize ?? BODY_BUFFER;
    return Math.max(0, BODY_BUFFER - (free ?? 0));
  }

  /** As Node's `destroy()`: the body ends here and the client is treated as gone. */
  destroy(): this {
    this.hangUp();
    return this;
  }

  constructor(signal?: AbortSignal) {
    this.response = new Promise((resolve) => { this.settle = resolve; });
    if (signal?.aborted) this.hangUp();
    else signal?.addEventListener('abort', () => this.hangUp(), { once: true });
  }

  setHeader(name: string, value: string): this {
    if (!HOST_OWNED.has(name.toLowerCase())) this.headers.set(name, value);
    return this;
  }

  writeHead(status: number, headers: Readonly<Record<string, string>> | string[] = {}): this {
    this.status = status;
    if (Array.isArray(headers)) for (let i = 0; i < headers.length; i += 2) this.setHeader(headers[i], headers[i + 1]);
    else for (const name in headers) this.setHeader(name, headers[name]);
    this.headersSent = true;
    return this;
  }

  flushHeaders(): void {
    this.headersSent = true;
    if (!this.destroyed) this.stream();
  }

  write(chunk: string): boolean {
    if (this.writableEnded || this.destroyed) return false;
    this.headersSent = true;
    this.stream().enqueue(encoder.encode(chunk));
    return true;
  }

  end(chunk?: string): this {
    if (this.writableEnded) return this;
    this.writableEnded = true;
    this.headersSent = true;
    if (!this.controller) {
      this.answer(chunk === undefined || chunk === '' || NO_BODY.has(this.status) ? null : chunk);
    } else if (!this.destroyed) {
      if (chunk) this.controller.enqueue(encoder.encode(chunk));
      this.controller.close();
    }
    this.emitClose();
    return this;
  }

  once(_event: 'close', listener: () => void): this {
    if (!this.closed) this.closeListeners.push(listener);
    return this;
  }

  /**
   * Called when the transport is done with the request. One it never answered (its client left, or
   * its body broke off, before anything was written: Node would answer nothing) still needs a
   * `Response` for the host.
   */
  unanswered(): void {
    if (!this.answered) this.answer(null, 400);
  }

  private stream(): ReadableStreamDefaultController<Uint8Array> {
    if (this.controller) return this.controller;
    // `start` runs within the constructor: the controller is there when it returns.
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({
      start: (started) => { controller = started; },
      cancel: () => this.hangUp(),
    }, new ByteLengthQueuingStrategy({ highWaterMark: BODY_BUFFER }));
    this.controller = controller;
    this.answer(body);
    return controller;
  }

  private answer(body: string | ReadableStream<Uint8Array> | null, status = this.status): void {
    if (this.answered) return;
    this.answered = true;
    this.settle(new Response(body, { status, headers: this.headers }));
  }

  /** The client is gone: nothing more is written, and whoever waits on `close` is told. */
  private hangUp(): void {
    if (this.writableEnded || this.destroyed) return;
    this.destroyed = true;
    try {
      this.controller?.close();
    } catch {
      // Already closed by the cancellation itself.
    }
    // The host is not kept waiting while a session-era call goes on without its client; no one reads this.
    this.unanswered();
    this.emitClose();
  }

  /** As Node does, after the current step: a listener may end what it listens to. */
  private emitClose(): void {
    if (this.closed) return;
    this.closed = true;
    queueMicrotask(() => {
      for (const listener of this.closeListeners.splice(0)) listener();
    });
  }
}
