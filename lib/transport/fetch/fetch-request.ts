import type { IncomingHttpHeaders } from 'node:http';
import { declaredTooLarge, type BodyLimits, type BodyOutcome, type SelfReadingRequest } from '../http/body-reader';

const TOO_LARGE: BodyOutcome = Object.freeze({ ok: false, reason: 'too_large' });
const TIMEOUT: BodyOutcome = Object.freeze({ ok: false, reason: 'timeout' });
const ABORTED: BodyOutcome = Object.freeze({ ok: false, reason: 'aborted' });
const CONSUMED: BodyOutcome = Object.freeze({ ok: false, reason: 'consumed' });
const LATE = Symbol('late');

/**
 * A web `Request` as the HTTP transport reads a request: method, path, headers by lower-cased
 * name, and a body read as text within the handler's limits, when the POST verb asks for it (so
 * the guards answer first, as on Node).
 */
export class FetchRequestView implements SelfReadingRequest {
  readonly method: string;
  readonly headers: IncomingHttpHeaders = {};
  private raw?: string[];
  private parsedUrl?: URL;

  constructor(private readonly request: Request) {
    this.method = request.method;
    // Web `Headers` iterates lower-cased names, a repeated header's values joined with ", ".
    for (const [name, value] of request.headers) this.headers[name] = value;
    // Hosts put the Host header in the URL and most keep it among the headers too; a `Request`
    // built by hand has it in the URL only. Either way it is what the Host guard checks.
    this.headers.host ??= this.parsed.host;
  }

  get url(): string {
    return this.parsed.pathname + this.parsed.search;
  }

  /**
   * `Headers` keeps no trace of a header sent twice but the ", " that joins the copies, so each
   * value is listed once per comma-separated part: a Host, session id or protocol version (which
   * never hold a comma) sent twice shows as repeated, and is refused as on Node.
   */
  get rawHeaders(): readonly string[] {
    if (this.raw) return this.raw;
    const raw: string[] = [];
    for (const [name, value] of this.request.headers) for (const part of value.split(',')) raw.push(name, part.trim());
    return (this.raw = raw);
  }

  private get parsed(): URL {
    return (this.parsedUrl ??= new URL(this.request.url));
  }

  /** The body as UTF-8 text, as on Node: 413 past `maxBytes` (declared or counted), 408 past `timeoutMs`. */
  async readText({ maxBytes, timeoutMs }: BodyLimits): Promise<BodyOutcome> {
    const body = this.request.body;
    if (declaredTooLarge(this, maxBytes)) {
      body?.cancel().catch(() => undefined);
      return TOO_LARGE;
    }
    // Something in front (a host's body parser) read it: there is nothing left to read.
    if (this.request.bodyUsed) return CONSUMED;
    if (body === null) return { ok: true, text: '' };
    const reader = body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<typeof LATE>((resolve) => { timer = setTimeout(resolve, timeoutMs, LATE); });
    try {
      for (;;) {
        const next = await Promise.race([reader.read(), late]);
        if (next === LATE) return stop(reader, TIMEOUT);
        if (next.done) break;
        size += next.value.byteLength;
        // Past the limit nothing more is kept: the rest of the body is left unread.
        if (size > maxBytes) return stop(reader, TOO_LARGE);
        chunks.push(next.value);
      }
    } catch {
      return ABORTED;
    } finally {
      clearTimeout(timer);
    }
    return { ok: true, text: decode(chunks, size) };
  }
}

function stop(reader: ReadableStreamDefaultReader<Uint8Array>, outcome: BodyOutcome): BodyOutcome {
  reader.cancel().catch(() => undefined);
  return outcome;
}

const decoder = new TextDecoder();

function decode(chunks: readonly Uint8Array[], size: number): string {
  if (chunks.length === 1) return decoder.decode(chunks[0]);
  const joined = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    joined.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return decoder.decode(joined);
}
