import type { ChannelRequestOptions, ClientChannel } from '../../context/client-channel';
import { ToolError } from '../../core/errors';
import { notification, request } from '../../core/jsonrpc';
import { Method, type Notification } from '../../core/methods';
import type { JsonObject, LoggingLevel } from '../../core/wire.types';
import type { Exchange } from '../in-flight';
import { PendingRequests } from './pending-requests';
import type { SessionState } from '../seams/session-state';

/** What the channel needs from the session engine beyond the request's own exchange. */
export interface ChannelHost {
  readonly pending: PendingRequests;
  resourceUpdated(uri: string): Promise<void>;
  /** Remembers where to announce the end of a URL elicitation. */
  trackUrlElicitation(elicitationId: string, sessionId: string, exchange: Exchange): void;
}

/**
 * The session era's way back to the client: notifications and requests go on the request's own
 * exchange, and responses come back through the engine's pending table.
 */
export class SessionChannel implements ClientChannel {
  constructor(
    private readonly host: ChannelHost,
    private readonly state: SessionState,
    private readonly exchange: Exchange,
  ) {}

  get logLevel(): LoggingLevel | undefined {
    return this.state.logLevel;
  }

  async notify(method: Notification, params: JsonObject): Promise<void> {
    this.exchange.send(notification(method, params));
  }

  async request(method: Method, params: JsonObject, options: ChannelRequestOptions): Promise<JsonObject> {
    const id = this.host.pending.allocateId();
    const answer = this.host.pending.wait(this.state.id, id, method, options.timeoutMs, options.signal, PendingRequests.sizeOf(params));
    if (method === Method.ElicitationCreate && params.mode === 'url' && typeof params.elicitationId === 'string') {
      this.host.trackUrlElicitation(params.elicitationId, this.state.id, this.exchange);
    }
    this.exchange.send(request(id, method, params));
    return answer;
  }

  resourceUpdated(uri: string): Promise<void> {
    return this.host.resourceUpdated(uri);
  }

  missingCapabilities(names: readonly string[]): Error {
    return new ToolError(`This needs the client capabilities ${names.join(', ')}, which the client did not declare`);
  }

  async closeStream(): Promise<void> {
    await this.exchange.disconnect?.();
  }
}
