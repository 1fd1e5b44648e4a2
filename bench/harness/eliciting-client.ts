import { Agent, request, type IncomingMessage } from 'node:http';
import { UPSTREAM_HEADER } from '../servers/round-robin-proxy';
import { openSession, type Call } from './dialects';
import { post, type HttpReply } from './http-client';

type Message = { id?: unknown; method?: string; result?: unknown; error?: unknown };

/** What the bench's client answers the asking tool's form with. */
export const ASKER_CONTENT: Readonly<Record<string, string>> = { name: 'Ada' };

/** The call the bench makes to the asking tool (`fixtures/phantom.fixtures.ts`). */
export const ASK: Call = {
  method: 'tools/call',
  params: { name: 'ask', arguments: {} },
  name: 'ask',
  verify: (result) => result?.content?.[0]?.text === `heard ${ASKER_CONTENT.name}`,
};

/** How long a round trip may go without a word on its stream before it counts as failed. */
const ROUND_TRIP_TIMEOUT_MS = 30_000;

/** One elicitation round trip, as the client saw it. */
export interface RoundTrip {
  /** From sending `tools/call` to reading its result, in milliseconds. */
  readonly ms: number;
  /**
   * The call and the client's answer were sent to different nodes, as the proxy's upstream header
   * says; undefined when there is no such header (no proxy in front).
   */
  readonly crossNode?: boolean;
}

/**
 * A session-era client that answers elicitations, as the official client does: it calls the
 * asking tool, reads the `elicitation/create` request the server sends on the call's SSE
 * stream, POSTs its answer (a request of its own, which a round-robin proxy sends to the next
 * node), and reads the call's result on the stream. One call at a time: the calls on a kept-alive
 * socket of their own, the answers on the set-up traffic's (`http-client`).
 */
export class ElicitingClient {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 1 });

  private constructor(private readonly url: string, private readonly headers: Readonly<Record<string, string>>) {}

  /** Opens a session that declares form elicitation; it answers every form with `ASKER_CONTENT`. */
  static async open(url: string): Promise<ElicitingClient> {
    const { sessionId, protocolVersion } = await openSession(url, {}, { elicitation: { form: {} } });
    return new ElicitingClient(url, {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-session-id': sessionId,
      'mcp-protocol-version': protocolVersion,
    });
  }

  /**
   * One call of the asking tool, answered; rejects with what came back when it went otherwise,
   * and after `ROUND_TRIP_TIMEOUT_MS` without a word on the stream (an answer that never arrived).
   */
  ask(id: number): Promise<RoundTrip> {
    const body = JSON.stringify({ jsonrpc: '2.0', id, method: ASK.method, params: ASK.params });
    const started = performance.now();
    return new Promise((resolve, reject) => {
      let ms: number | undefined;
      let result: unknown;
      let failure: Error | undefined;
      let answered: Promise<HttpReply> | undefined;
      const req = request(this.url, {
        method: 'POST',
        agent: this.agent,
        headers: { ...this.headers, 'content-length': String(Buffer.byteLength(body)) },
        timeout: ROUND_TRIP_TIMEOUT_MS,
      }, (res) => {
        if (res.statusCode !== 200 || !String(res.headers['content-type']).includes('text/event-stream')) {
          return void textOf(res).then((text) => reject(new Error(`tools/call ask: HTTP ${res.statusCode} ${text.slice(0, 300)}`)), reject);
        }
        // A failed answer leaves the tool waiting: closing the stream cancels its call.
        const fail = (error: Error) => {
          failure ??= error;
          req.destroy();
        };
        const askedOn = upstreamOf(res.headers);
        readEvents(res, (message) => {
          if (message.method === 'elicitation/create' && message.id !== undefined) {
            answered = this.answer(message.id);
            answered.catch(fail);
          } else if (message.id === id) {
            ms = performance.now() - started;
            result = message.result ?? message;
          }
        }, fail);
        res.on('close', () => {
          if (failure) return reject(failure);
          if (ms === undefined || !ASK.verify(result)) return reject(new Error(`tools/call ask was not answered as expected: ${JSON.stringify(result) ?? 'no result'}`));
          if (!answered) return reject(new Error('tools/call ask was answered without an elicitation'));
          // The result may come back before the answer's own 202 does.
          const took = ms;
          answered.then((reply) => {
            const answeredOn = upstreamOf(reply.headers);
            resolve({ ms: took, ...(askedOn === undefined || answeredOn === undefined ? {} : { crossNode: askedOn !== answeredOn }) });
          }, reject);
        });
      });
      req.on('timeout', () => req.destroy(new Error(`tools/call ask: nothing for ${ROUND_TRIP_TIMEOUT_MS / 1000} s`)));
      req.on('error', (error) => {
        failure ??= error;
        reject(failure);
      });
      req.end(body);
    });
  }

  close(): void {
    this.agent.destroy();
  }

  /** The client's answer to the server's request: accepted, with the form's content. */
  private async answer(requestId: unknown): Promise<HttpReply> {
    const reply = await post(this.url, this.headers, JSON.stringify({ jsonrpc: '2.0', id: requestId, result: { action: 'accept', content: ASKER_CONTENT } }));
    if (reply.status !== 202) throw new Error(`the elicitation answer was refused: HTTP ${reply.status} ${reply.text.slice(0, 300)}`);
    return reply;
  }
}

/** Calls `onMessage` with each JSON-RPC message of an SSE body, as its event completes; `onBad` with one that is not JSON. */
function readEvents(res: IncomingMessage, onMessage: (message: Message) => void, onBad: (error: Error) => void): void {
  let buffer = '';
  res.setEncoding('utf8');
  res.on('data', (chunk: string) => {
    buffer += chunk;
    for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
      const event = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = event.split('\n').filter((line) => line.startsWith('data:')).map((line) => line.slice(5).trim()).join('');
      if (!data) continue;
      let message: Message;
      try {
        message = JSON.parse(data) as Message;
      } catch {
        return onBad(new Error(`not JSON on the stream: ${data.slice(0, 300)}`));
      }
      onMessage(message);
    }
  });
}

function upstreamOf(headers: HttpReply['headers']): string | undefined {
  const value = headers[UPSTREAM_HEADER];
  return typeof value === 'string' ? value : undefined;
}

async function textOf(res: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of res) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
