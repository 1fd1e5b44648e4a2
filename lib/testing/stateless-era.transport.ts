import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ClientCapabilities, Implementation, JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { InMemoryTransport } from '..';
import { answerTo, type ClientAnswers } from './client-answers';

/** The revision of the stateless era the test client speaks. */
export const STATELESS_VERSION = '2026-07-28';

/** Internal error: what the SDK client rejects with when the kit cannot finish a request's rounds. */
const INTERNAL_ERROR = -32603;

export interface StatelessEraOptions {
  readonly clientInfo: Implementation;
  readonly capabilities: ClientCapabilities;
  readonly answers: ClientAnswers;
  /** Rounds answered per request before the request fails. */
  readonly maxRounds: number;
}

interface Sent {
  readonly request: JSONRPCMessage & { id: RequestId; method: string; params?: Record<string, unknown> };
  rounds: number;
}

/**
 * The client's end of an in-memory pipe, speaking the stateless era (2026-07-28) under the
 * official SDK's `Client`, which speaks only the session era. Each request leaves with the
 * revision's `_meta` (version, client info, capabilities); a result `input_required` never reaches
 * the client: its input requests are answered with the test's answers and the request is sent
 * again, with the same id, `inputResponses` and the `requestState`, until it ends, as a 2026
 * client retries. The client sees only the final result, so `callTool`, `getPrompt` and
 * `readResource` read as they do in the session era.
 */
export class StatelessEraTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  /**
   * Set so that the SDK's `Client.connect` sends no `initialize` (it skips the handshake for a
   * transport that already has a session: a reconnection); the stateless era has no handshake.
   * The server sees no session id: none is ever sent on a pipe.
   */
  readonly sessionId = 'stateless-era';
  private readonly sent = new Map<RequestId, Sent>();

  constructor(private readonly pipe: InMemoryTransport, private readonly options: StatelessEraOptions) {}

  async start(): Promise<void> {
    this.pipe.onmessage = (message) => void this.receive(message as JSONRPCMessage);
    this.pipe.onclose = () => this.onclose?.();
    this.pipe.onerror = (error) => this.onerror?.(error);
    await this.pipe.start();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if ('method' in message && 'id' in message) {
      const request = { ...message, params: { ...message.params, _meta: { ...this.meta(), ...message.params?._meta } } };
      this.sent.set(message.id, { request, rounds: 0 });
      return this.pipe.send(request);
    }
    // A cancelled request's last round may never be answered: nothing is kept for it.
    if ('method' in message && message.method === 'notifications/cancelled') this.sent.delete(message.params?.requestId as RequestId);
    return this.pipe.send(message);
  }

  close(): Promise<void> {
    return this.pipe.close();
  }

  private meta(): Record<string, unknown> {
    return {
      'io.modelcontextprotocol/protocolVersion': STATELESS_VERSION,
      'io.modelcontextprotocol/clientInfo': this.options.clientInfo,
      'io.modelcontextprotocol/clientCapabilities': this.options.capabilities,
    };
  }

  private async receive(message: JSONRPCMessage): Promise<void> {
    const sent = 'id' in message && !('method' in message) ? this.sent.get(message.id as RequestId) : undefined;
    if (!sent) return this.onmessage?.(message);
    const result = 'result' in message ? message.result as Record<string, unknown> : undefined;
    if (result?.resultType !== 'input_required') {
      this.sent.delete(sent.request.id);
      return this.onmessage?.(message);
    }
    try {
      await this.pipe.send(await this.retry(sent, result));
    } catch (error) {
      this.sent.delete(sent.request.id);
      this.onmessage?.({ jsonrpc: '2.0', id: sent.request.id, error: { code: INTERNAL_ERROR, message: (error as Error).message } });
    }
  }

  /** The request again, with this round's answers and the state the server sealed the earlier ones in. */
  private async retry(sent: Sent, result: Record<string, unknown>): Promise<JSONRPCMessage> {
    sent.rounds += 1;
    const { request } = sent;
    if (sent.rounds > this.options.maxRounds) {
      throw new Error(`phantom-mcp/testing: ${request.method} still asked for input after ${this.options.maxRounds} rounds (maxRounds); does the handler ask for something new on every round?`);
    }
    const asked = (result.inputRequests ?? {}) as Record<string, { method: string; params?: unknown }>;
    const inputResponses = Object.fromEntries(await Promise.all(Object.entries(asked).map(
      async ([key, input]) => [key, await answerTo(this.options.answers, input.method, input.params)] as const,
    )));
    const params: Record<string, unknown> = { ...request.params, inputResponses };
    if (result.requestState === undefined) delete params.requestState;
    else params.requestState = result.requestState;
    return { ...request, params } as JSONRPCMessage;
  }
}
