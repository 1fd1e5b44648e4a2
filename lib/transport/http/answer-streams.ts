import type { HttpResponseLike } from './http-like.types';
import type { JsonRpcMessage } from '../../core/jsonrpc';
import { messageEvent, SSE_HEADERS } from './sse-framing';
import type { SseStream } from './sse-stream';
import { UNLIMITED, UnreadWatch, type UnreadLimit } from './unread-watch';

/** The SSE stream a POST's answer turned into, once a message had to go out before the response. */
export interface AnswerStream {
  /** False once nothing written on it reaches the client any more. */
  readonly open: boolean;
  send(message: JsonRpcMessage): void;
  /** Sends `last` (the response, a batch's responses, or nothing) and ends the stream. */
  end(last: readonly JsonRpcMessage[]): void;
  /** Ends the connection but keeps the stream resumable (`Last-Event-ID`); absent where the era has no resumption. */
  disconnect?(): Promise<void>;
}

/** How a POST's answer becomes an SSE stream, per era; one per handler, shared by its requests. */
export interface AnswerStreams {
  /** Whether a stream outlives its connection (`Exchange#disconnect` then lets the client resume it). */
  readonly resumable: boolean;
  /** Writes the SSE headers on `res` (with `headers`) and opens the stream; `undefined` when nothing can be streamed any more. */
  open(res: HttpResponseLike, headers: Readonly<Record<string, string>>, sessionId: string | undefined): AnswerStream | undefined;
  /** Answers a request that ends with nothing at all streamed (a cancelled request, a listen stream left). */
  empty(res: HttpResponseLike, headers: Readonly<Record<string, string>>): void;
}

/** What a session-era answer needs of the handler: a new stream of the session. */
export interface StreamFactory {
  open(sessionId: string): SseStream;
}

/**
 * Session era: the answer turns into a stream of the session, kept in the event store so that
 * the client can resume it (on this node or another) with `Last-Event-ID`, primed with an id.
 * An answer with nothing in it is an event stream that ends: the spec lets a POST carrying a
 * request be answered only with JSON or an event stream.
 */
export function sessionAnswerStreams(streams: StreamFactory): AnswerStreams {
  return {
    resumable: true,
    open(res, headers, sessionId) {
      const stream = streams.open(sessionId as string);
      if (!res.destroyed) {
        res.writeHead(200, { ...headers, ...SSE_HEADERS });
        res.flushHeaders();
        stream.attach(res);
      }
      void stream.prime();
      return new ResumableAnswer(stream);
    },
    empty(res, headers) {
      res.writeHead(200, { ...headers, ...SSE_HEADERS });
      res.end();
    },
  };
}

/**
 * Stateless era: the answer turns into a plain stream on the connection (the era has no
 * resumption), which a client that stops reading loses as if it had closed it. An answer with
 * nothing in it is a 204.
 */
export function statelessAnswerStreams(unread: UnreadLimit = UNLIMITED): AnswerStreams {
  return {
    resumable: false,
    open(res, headers) {
      if (res.destroyed || res.writableEnded) return undefined;
      res.writeHead(200, { ...headers, ...SSE_HEADERS });
      res.flushHeaders();
      return new PlainAnswer(res, unread);
    },
    empty(res, headers) {
      res.writeHead(204, headers);
      res.end();
    },
  };
}

/** A session-era answer on a resumable stream: what is sent is stored, whether a connection carries it or not. */
class ResumableAnswer implements AnswerStream {
  constructor(private readonly stream: SseStream) {}

  get open(): boolean {
    return this.stream.connected;
  }

  send(message: JsonRpcMessage): void {
    void this.stream.send(message);
  }

  end(last: readonly JsonRpcMessage[]): void {
    for (const message of last) void this.stream.send(message);
    void this.stream.finish();
  }

  disconnect(): Promise<void> {
    return this.stream.disconnect();
  }
}

/** A stateless-era answer written straight on its connection, which is dropped when its client stops reading. */
class PlainAnswer implements AnswerStream {
  private readonly watch: UnreadWatch;

  constructor(private readonly res: HttpResponseLike, unread: UnreadLimit) {
    this.watch = new UnreadWatch(res, unread, () => res.destroy());
    res.once('close', () => this.watch.stop());
  }

  get open(): boolean {
    return !this.res.destroyed && !this.res.writableEnded;
  }

  send(message: JsonRpcMessage): void {
    if (this.open) this.watch.write(messageEvent(message));
  }

  end(last: readonly JsonRpcMessage[]): void {
    if (this.res.destroyed) return;
    for (const message of last) this.watch.write(messageEvent(message));
    this.res.end();
  }
}
