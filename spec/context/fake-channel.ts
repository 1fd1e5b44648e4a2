import type { ChannelRequestOptions, ClientChannel, JsonObject, LoggingLevel } from '../../lib';
import { PhantomError } from '../../lib';

/** A client channel that records what the context sends and answers requests from a script. */
export class FakeChannel implements ClientChannel {
  readonly notifications: Array<{ method: string; params: JsonObject }> = [];
  readonly requests: Array<{ method: string; params: JsonObject; options: ChannelRequestOptions }> = [];
  readonly updated: string[] = [];

  constructor(
    private readonly answer: (method: string, params: JsonObject) => JsonObject | 'timeout' = () => ({}),
    readonly logLevel?: LoggingLevel,
  ) {}

  async notify(method: string, params: JsonObject): Promise<void> {
    this.notifications.push({ method, params });
  }

  async request(method: string, params: JsonObject, options: ChannelRequestOptions): Promise<JsonObject> {
    this.requests.push({ method, params, options });
    const reply = this.answer(method, params);
    if (reply === 'timeout') throw new PhantomError('request_timeout', 'timed out');
    return reply;
  }

  async resourceUpdated(uri: string): Promise<void> {
    this.updated.push(uri);
  }
}
