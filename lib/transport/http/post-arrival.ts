import type { HttpRequestLike, HttpResponseLike } from './http-like.types';
import type { RequestId, JsonRpcRequest } from '../../core/jsonrpc';
import type { ErrorObject } from '../../core/error-mapper';
import type { JsonObject } from '../../core/wire.types';
import type { Arrival, InFlightKind } from '../../protocol/arrival';
import type { RequestMeta } from '../../protocol/stateless-era/request-meta';
import type { Drain } from '../drain';
import type { AnswerStreams } from './answer-streams';
import { BatchCall, PostedCall, type HttpInFlight } from './http-calls';
import { HttpExchange } from './http-exchange';
import { checkMirroredHeaders } from './mirrored-headers';

/** What a POST needs of its handler: its drain, and how an answer turns into a stream in each era. */
export interface PostHost {
  /** Whether the handler still takes requests, and what it has in flight. */
  readonly drain: Drain<HttpInFlight>;
  /** Session era: a resumable stream of the session. */
  readonly sessionStreams: AnswerStreams;
  /** Stateless era: a plain stream on the connection. */
  readonly statelessStreams: AnswerStreams;
}

/**
 * What one POST tells the dispatcher: who sent it, the session and version it names, and, once
 * the dispatcher admits a request, the way back it opens (registered with the handler's drain
 * right then, so closing cannot miss it).
 */
export class PostArrival implements Arrival {
  /** The request in flight, if the dispatcher admitted one. */
  call?: HttpInFlight;
  private listen = false;

  constructor(
    private readonly host: PostHost,
    readonly req: HttpRequestLike,
    readonly res: HttpResponseLike,
    readonly principal: unknown,
    readonly cors: Readonly<Record<string, string>>,
    readonly sessionId: string | undefined,
    readonly versionHeader: string | undefined,
  ) {}

  get accepting(): boolean {
    return this.host.drain.accepting;
  }

  checkHeaders(message: JsonRpcRequest, meta: RequestMeta, toolInputSchema: JsonObject | undefined): ErrorObject | undefined {
    return checkMirroredHeaders(this.req, message, meta, toolInputSchema);
  }

  open(kind: InFlightKind, sessionId: string | undefined, id: RequestId | null): HttpInFlight | undefined {
    const { drain } = this.host;
    if (!drain.accepting) return undefined;
    const call = kind === 'stateless' || kind === 'listen'
      ? new PostedCall(this.res, new HttpExchange(this.res, this.cors, this.host.statelessStreams), id as RequestId, true)
      : this.sessionCall(kind, sessionId as string, id);
    this.listen = kind === 'listen';
    drain.track(call, this.listen);
    this.call = call;
    return call;
  }

  /** The request is answered (or given up on): closing no longer waits for it. */
  release(): void {
    if (this.call) this.host.drain.untrack(this.call, this.listen);
  }

  private sessionCall(kind: InFlightKind, sessionId: string, id: RequestId | null): HttpInFlight {
    const exchange = new HttpExchange(this.res, this.cors, this.host.sessionStreams, sessionId);
    return kind === 'batch' ? new BatchCall(this.res, exchange) : new PostedCall(this.res, exchange, id as RequestId);
  }
}
