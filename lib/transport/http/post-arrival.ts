import type { HttpRequestLike, HttpResponseLike } from './http-like.types';
import type { RequestId, JsonRpcRequest } from '../../core/jsonrpc';
import type { ErrorObject } from '../../core/error-mapper';
import type { JsonObject } from '../../core/wire.types';
import type { Arrival, InFlightKind } from '../../protocol/arrival';
import type { RequestMeta } from '../../protocol/stateless-era/request-meta';
import type { Drain } from '../drain';
import { BatchCall, PostedCall, type HttpWay } from './http-calls';
import { checkMirroredHeaders } from './mirrored-headers';
import { PostExchange } from './post-exchange';
import type { SseStream } from './sse-stream';
import { StatelessExchange } from './stateless-exchange';
import type { UnreadLimit } from './unread-watch';

/** What a POST needs of its handler: its drain (whether it still takes requests, what it has in flight), new SSE streams. */
export interface PostHost {
  readonly drain: Drain<HttpWay>;
  /** A new SSE stream of a session (a POST exchange switching to SSE). */
  open(sessionId: string): SseStream;
  /** What a stateless-era SSE answer may leave unread before its connection is dropped. */
  readonly sseUnread: UnreadLimit;
}

/**
 * What one POST tells the dispatcher: who sent it, the session and version it names, and, once
 * the dispatcher admits a request, the way back it opens (registered with the handler's drain
 * right then, so closing cannot miss it).
 */
export class PostArrival implements Arrival {
  /** The way back opened for the request, if the dispatcher admitted one. */
  way?: HttpWay;
  private listen = false;

  constructor(
    private readonly host: PostHost,
    private readonly req: HttpRequestLike,
    private readonly res: HttpResponseLike,
    readonly principal: unknown,
    private readonly cors: Readonly<Record<string, string>>,
    readonly sessionId: string | undefined,
    readonly versionHeader: string | undefined,
    private readonly sessionHeader: string,
  ) {}

  get accepting(): boolean {
    return this.host.drain.accepting;
  }

  checkHeaders(message: JsonRpcRequest, meta: RequestMeta, toolInputSchema: JsonObject | undefined): ErrorObject | undefined {
    return checkMirroredHeaders(this.req, message, meta, toolInputSchema);
  }

  open(kind: InFlightKind, sessionId: string | undefined, id: RequestId | null): HttpWay | undefined {
    if (!this.host.drain.accepting) return undefined;
    const way = kind === 'stateless' || kind === 'listen' ? new StatelessExchange(this.res, this.cors, id as RequestId, this.host.sseUnread) : this.sessionWay(kind, sessionId as string, id);
    this.listen = kind === 'listen';
    this.host.drain.track(way, this.listen);
    this.way = way;
    return way;
  }

  /** The request is answered (or given up on): closing no longer waits for it. */
  release(): void {
    if (this.way) this.host.drain.untrack(this.way, this.listen);
  }

  private sessionWay(kind: InFlightKind, sessionId: string, id: RequestId | null): HttpWay {
    const exchange = new PostExchange(this.res, sessionId, this.host, { ...this.cors, [this.sessionHeader]: sessionId });
    return kind === 'batch' ? new BatchCall(this.res, exchange) : new PostedCall(this.res, exchange, id as RequestId);
  }
}
