import { isRequestId, type RequestId } from '../../core/jsonrpc';
import type { HttpRequestLike } from './http-like.types';

export type BodyFailure = 'too_large' | 'aborted' | 'timeout' | 'consumed' | 'unreadable';

/** The body as JSON text, or why there is none; `id` is the request's, when a parsed value that cannot be read back names one. */
export type BodyOutcome =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly reason: BodyFailure; readonly id?: RequestId | null };

export interface BodyLimits {
  /** Largest body, in bytes (of its JSON text, for a body a parser already read). */
  readonly maxBytes: number;
  /** How long the rest of a body may take to arrive once reading starts. */
  readonly timeoutMs: number;
  /**
   * Past `maxBytes`, how many more bytes are read and dropped so that the refusal goes out once the
   * client has sent its body, on a connection that then closes cleanly (default 0: at once).
   */
  readonly discardBytes?: number;
}

const TOO_LARGE: BodyOutcome = Object.freeze({ ok: false, reason: 'too_large' });
const ABORTED: BodyOutcome = Object.freeze({ ok: false, reason: 'aborted' });

/**
 * A request whose body is still on a node stream (an `IncomingMessage`), perhaps next to what a
 * host framework's body parser left on `body`.
 */
export interface StreamBodyRequest extends HttpRequestLike {
  readonly body?: unknown;
  readonly readableEnded: boolean;
  readonly readableDidRead: boolean;
  readonly destroyed: boolean;
  readonly complete: boolean;
  /** Node's stream event: each chunk of the body. */
  on(event: 'data', listener: (chunk: Buffer) => void): unknown;
  /** Node's stream events: the body ended, failed, or the connection closed. */
  on(event: 'end' | 'error' | 'close', listener: () => void): unknown;
  /** Stops taking chunks: the rest of a refused body (too large, too late) is not kept in memory. */
  removeAllListeners(event: 'data'): unknown;
  /** Lets the rest of the stream flow (and be discarded), so the connection can be answered. */
  resume(): unknown;
}

/** A request that reads its own body within the limits, with the same outcomes: the fetch adapter's view of a web `Request`. */
export interface SelfReadingRequest extends HttpRequestLike {
  readText(limits: BodyLimits): Promise<BodyOutcome>;
}

/** A request the handler can take a POST body from. */
export type BodyRequest = StreamBodyRequest | SelfReadingRequest;

/** A declared Content-Length past the limit: refused before a byte is read. */
export function declaredTooLarge(req: HttpRequestLike, maxBytes: number): boolean {
  const declared = Number(req.headers['content-length']);
  return Number.isFinite(declared) && declared > maxBytes;
}

/**
 * A POST body as JSON text, wherever it is: handed in by the caller, left on `req.body` by a host
 * framework's body parser, or still on the stream. Every source ends as text so that one path
 * (size, parse, depth, classification) checks them all alike.
 *
 * The stream's state decides between `req.body` and the stream: bytes still unread are the truth
 * (a `req.body` next to them is a placeholder: Express 4 sets `{}` for types it skips); once
 * someone has read them, `req.body` is all there is, and waiting for more would last for ever.
 */
export function readBody(req: BodyRequest, supplied: unknown, limits: BodyLimits): BodyOutcome | Promise<BodyOutcome> {
  if (isBody(supplied)) return textOf(supplied, limits.maxBytes);
  if (isSelfReading(req)) return req.readText(limits);
  const unread = !req.readableEnded && !req.readableDidRead;
  if (declaredTooLarge(req, limits.maxBytes)) {
    // Within the discard bound the body is drained first, and refused once it is in (see `readStream`).
    if (unread && !req.destroyed && !declaredTooLarge(req, limits.maxBytes + (limits.discardBytes ?? 0))) return readStream(req, limits, true);
    req.resume();
    return TOO_LARGE;
  }
  if (unread) return req.destroyed ? ABORTED : readStream(req, limits);
  const parsed = req.body;
  if (isBody(parsed)) return textOf(parsed, limits.maxBytes);
  return { ok: false, reason: req.complete ? 'consumed' : 'aborted' };
}

function isSelfReading(req: BodyRequest): req is SelfReadingRequest {
  return typeof (req as Partial<SelfReadingRequest>).readText === 'function';
}

/**
 * What a parser can leave: JSON text, its bytes, or the parsed value, which may be any JSON value
 * (Fastify parses a body of `null` or `5` as such). `undefined` is no body; a function is none
 * either: Express passes `next` third when the handler is mounted directly.
 */
function isBody(value: unknown): boolean {
  return value !== undefined && typeof value !== 'function';
}

function textOf(value: unknown, maxBytes: number): BodyOutcome {
  let text: string;
  if (typeof value === 'string') text = value;
  else if (value instanceof Uint8Array) {
    if (value.byteLength > maxBytes) return { ok: false, reason: 'too_large' };
    text = Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('utf8');
  } else {
    // A parsed value goes back to text for the same checks as raw bytes. A circular or far too
    // deeply nested one cannot; it is refused, with the request's id when it names one, as the
    // raw bytes of a message nested too deeply are.
    const json = stringified(value);
    if (json === undefined) return { ok: false, reason: 'unreadable', id: topLevelId(value) };
    text = json;
  }
  return Buffer.byteLength(text) > maxBytes ? { ok: false, reason: 'too_large' } : { ok: true, text };
}

function topLevelId(value: unknown): RequestId | null {
  const id = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as { id?: unknown }).id : undefined;
  return isRequestId(id) ? id : null;
}

function stringified(value: unknown): string | undefined {
  try {
    const json: unknown = JSON.stringify(value);
    return typeof json === 'string' ? json : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Reads the stream up to `maxBytes`. Past it (or from the start when `tooLarge`), no byte is kept:
 * the rest is read and dropped up to `discardBytes` more, and `too_large` reported once the body
 * has ended, so the 413 (which closes the connection) does not race the client's upload: a socket
 * closed with bytes still coming is reset, and the client may lose the answer. Past the discard
 * bound, or at the deadline, it is reported at once.
 */
function readStream(req: StreamBodyRequest, { maxBytes, timeoutMs, discardBytes = 0 }: BodyLimits, tooLarge = false): Promise<BodyOutcome> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = tooLarge;
    let settled = false;
    let deadline: NodeJS.Timeout | undefined;
    const settle = (outcome: BodyOutcome) => {
      if (settled) return;
      settled = true;
      if (deadline) clearTimeout(deadline);
      resolve(outcome);
    };
    // The bytes already kept are dropped and the rest is drained unread (the answer closes the
    // connection).
    const stop = (outcome: BodyOutcome) => {
      chunks.length = 0;
      req.removeAllListeners('data');
      req.resume();
      settle(outcome);
    };
    // A body received in full needs no deadline; any other is cut off when it is late. The
    // handler runs as soon as Node has parsed the headers, and Node runs the tick queue before it
    // parses the body that came in the same packet (each parser callback is a callback of its
    // own): a tick later, every POST over node:http still looked unfinished (counted) and got a
    // timer. Its body is in by the end of the turn of I/O, so the deadline waits for that; a body
    // already in a tick later (a stream a host fed itself) needs neither.
    const setDeadline = () => {
      if (!settled && !req.complete) deadline = setTimeout(() => stop(over ? TOO_LARGE : { ok: false, reason: 'timeout' }), timeoutMs);
    };
    process.nextTick(() => {
      if (!settled && !req.complete) setImmediate(setDeadline);
    });
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (!over && size <= maxBytes) return void chunks.push(chunk);
      if (!over) {
        over = true;
        chunks.length = 0;
      }
      if (size > maxBytes + discardBytes) stop(TOO_LARGE);
    });
    req.on('end', () => settle(over ? TOO_LARGE : { ok: true, text: textOfChunks(chunks) }));
    const aborted = () => settle(ABORTED);
    req.on('error', aborted);
    req.on('close', aborted);
  });
}

/** The body's text; a body that came in one chunk (most do) is decoded without a copy. */
function textOfChunks(chunks: readonly Buffer[]): string {
  return chunks.length === 1 ? chunks[0].toString('utf8') : Buffer.concat(chunks).toString('utf8');
}
