import type { ChannelRequestOptions, ClientChannel } from '../../context/client-channel';
import type { Exchange } from '../in-flight';
import { ErrorCode } from '../../core/error-codes';
import { InputRequiredSignal, ProtocolError } from '../../core/errors';
import { notification } from '../../core/jsonrpc';
import { Method, type Notification } from '../../core/methods';
import { clientResultProblem } from '../../core/client-results';
import type { JsonObject, LoggingLevel } from '../../core/wire.types';

/** Short, stable key prefixes for input requests, by method. */
const KEY_PREFIX: Readonly<Record<string, string>> = Object.freeze({
  [Method.ElicitationCreate]: 'elicit',
  [Method.SamplingCreateMessage]: 'sample',
  [Method.RootsList]: 'roots',
});

export interface InputRequest {
  readonly method: string;
  readonly params: JsonObject;
}

const NO_REQUESTS: ReadonlyMap<string, InputRequest> = new Map();

/**
 * The stateless era's way back to the client. Notifications go on the request's own response
 * stream; server-to-client requests cannot be sent, so each one is answered from the request's
 * `inputResponses` (by a key stable across re-runs: the handler asks again in the same order), or
 * recorded as an input request and the round ends with `input_required`.
 */
export class InputChannel implements ClientChannel {
  // Both made on first use: most calls ask the client nothing, and every call has a channel.
  private requests?: Map<string, InputRequest>;
  private consumed?: JsonObject;
  private asked = 0;

  constructor(
    private readonly exchange: Exchange,
    private readonly answers: JsonObject,
    /** `_meta` logLevel; absent means the client wants no log messages at all. */
    readonly logLevel: LoggingLevel | 'off',
    private readonly allowsInput: boolean,
    private readonly onResourceUpdated: (uri: string) => Promise<void>,
  ) {}

  /** What the handler asked for that the request did not carry, by key. */
  get inputRequests(): ReadonlyMap<string, InputRequest> {
    return this.requests ?? NO_REQUESTS;
  }

  /**
   * The answers the handler consumed, by key: sealed into the next `requestState`. Keys are the
   * handler's to name, so no prototype: a key such as `__proto__` is an ordinary entry.
   */
  get used(): JsonObject {
    return (this.consumed ??= Object.create(null) as JsonObject);
  }

  async notify(method: Notification, params: JsonObject): Promise<void> {
    if (this.exchange.open) this.exchange.send(notification(method, params));
  }

  async request(method: Method, params: JsonObject, options: ChannelRequestOptions): Promise<JsonObject> {
    this.asked += 1;
    const key = options.key ?? `${KEY_PREFIX[method] ?? 'input'}-${this.asked}`;
    if (!this.allowsInput) {
      throw new ProtocolError(ErrorCode.InternalError, `${method} cannot be requested while answering this method`);
    }
    // Own entries only: a key named `constructor` or `toString` must not find Object.prototype's.
    const answer = Object.hasOwn(this.answers, key) ? this.answers[key] : undefined;
    if (answer === undefined) {
      (this.requests ??= new Map()).set(key, { method, params });
      throw new InputRequiredSignal();
    }
    // A malformed answer arrives in the params of the client's own request: invalid params.
    const problem = typeof answer !== 'object' || answer === null || Array.isArray(answer) ? 'it must be an object' : clientResultProblem(method, answer as JsonObject);
    if (problem) throw ProtocolError.invalidParams(`inputResponses["${key}"] is not a valid ${method} result: ${problem}`);
    this.used[key] = answer;
    return answer as JsonObject;
  }

  resourceUpdated(uri: string): Promise<void> {
    return this.onResourceUpdated(uri);
  }

  missingCapabilities(names: readonly string[]): Error {
    return missingCapabilities(names);
  }
}

/** The stateless era's error for client capabilities a request did not declare: -32021, naming them. */
export function missingCapabilities(names: readonly string[], required: JsonObject = Object.fromEntries(names.map((name) => [name, {}]))): ProtocolError {
  return new ProtocolError(ErrorCode.MissingRequiredClientCapability, `Missing required client capabilities: ${names.join(', ')}`, { requiredCapabilities: required });
}
