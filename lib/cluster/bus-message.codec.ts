import { createHmac, timingSafeEqual } from 'node:crypto';
import { classify, isRequestId } from '../core/jsonrpc';
import { LIST_CHANGED } from '../core/methods';
import type { ServerMessage, SessionMessage } from '../protocol/seams/session-bus';

/** A message as it arrived on a channel: any text a Redis client could publish. */
type Fields = Readonly<Record<string, unknown>>;

/** Whether the fields of a message of one kind are what that kind carries. */
type ShapeTable<M extends { kind: string }> = { readonly [K in M['kind']]: (fields: Fields) => boolean };

const SESSION_SHAPES: ShapeTable<SessionMessage> = Object.freeze({
  // The client's answer goes on to a waiting request as it is: it must be a JSON-RPC response.
  response: (fields) => classify(fields.response).kind === 'response',
  cancel: (fields) => isRequestId(fields.requestId) && (fields.reason === undefined || typeof fields.reason === 'string'),
  // Written as it is to a client's stream: it must be a JSON-RPC notification.
  notify: (fields) => ['notification', 'request'].includes(classify(fields.notification).kind),
  'standalone-moved': (fields) => isId(fields.holder) && isId(fields.streamId),
  ended: () => true,
});

const SERVER_SHAPES: ShapeTable<ServerMessage> = Object.freeze({
  'list-changed': (fields) => typeof fields.list === 'string' && Object.hasOwn(LIST_CHANGED, fields.list),
  'resource-updated': (fields) => typeof fields.uri === 'string',
  'elicitation-complete': (fields) => typeof fields.elicitationId === 'string',
  'task-changed': (fields) => isId(fields.taskId),
});

/** An id another node made (its size bounded by the message's). */
function isId(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0;
}

/** A message read off a channel, or why it was not (in words for the diagnostics). */
export type Decoded<M> = { readonly message: M } | { readonly refused: string };

/** Length of an HMAC-SHA256 in base64url, the prefix of a signed message (then a space). */
const MAC_LENGTH = 43;

/**
 * Messages on the wire between nodes: JSON, at most `maxBytes` (UTF-8) each. Anything on a
 * channel is checked before a listener sees it, since any client of the Redis can publish there.
 *
 * With a `secret` (one Redis never holds), each message is sent as `<mac> <json>`, the MAC an
 * HMAC-SHA256 of the channel and the JSON, and a message without a valid one is refused before it
 * is parsed: a client of the Redis without the secret can no longer speak for a node, and a
 * message taken from one channel is refused on another.
 */
export class BusMessageCodec {
  constructor(private readonly maxBytes: number, private readonly secret?: Buffer) {}

  /** The text to publish on `channel`, or why it cannot be sent. */
  encode(message: SessionMessage | ServerMessage, channel: string): { readonly text: string } | { readonly refused: string } {
    const json = JSON.stringify(message);
    const text = this.secret ? `${this.mac(channel, json)} ${json}` : json;
    const bytes = Buffer.byteLength(text);
    return bytes > this.maxBytes ? { refused: `the message is ${bytes} bytes, more than maxMessageBytes (${this.maxBytes})` } : { text };
  }

  decodeSession(text: string, channel: string): Decoded<SessionMessage> {
    return this.decode(text, channel, SESSION_SHAPES) as Decoded<SessionMessage>;
  }

  decodeServer(text: string, channel: string): Decoded<ServerMessage> {
    return this.decode(text, channel, SERVER_SHAPES) as Decoded<ServerMessage>;
  }

  private mac(channel: string, json: string): string {
    return createHmac('sha256', this.secret!).update(channel).update('\n').update(json).digest('base64url');
  }

  /** The JSON of a message whose MAC is valid for `channel`, or undefined. */
  private verified(text: string, channel: string): string | undefined {
    if (text.length <= MAC_LENGTH || text[MAC_LENGTH] !== ' ') return undefined;
    const json = text.slice(MAC_LENGTH + 1);
    const given = Buffer.from(text.slice(0, MAC_LENGTH));
    const expected = Buffer.from(this.mac(channel, json));
    return given.length === expected.length && timingSafeEqual(given, expected) ? json : undefined;
  }

  private decode(received: string, channel: string, shapes: Readonly<Record<string, (fields: Fields) => boolean>>): Decoded<Fields> {
    // Checked before parsing, so an oversized message costs no parse; UTF-8 takes at least a byte
    // per UTF-16 unit, so only a text near the limit needs counting.
    if (received.length > this.maxBytes || (received.length * 3 > this.maxBytes && Buffer.byteLength(received) > this.maxBytes)) {
      return { refused: `a message larger than maxMessageBytes (${this.maxBytes})` };
    }
    const text = this.secret ? this.verified(received, channel) : received;
    if (text === undefined) return { refused: 'a message without a valid MAC (busSecret)' };
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return { refused: 'a message that is not JSON' };
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return { refused: 'a message that is not a JSON object' };
    const fields = value as Fields;
    const kind = fields.kind;
    const shape = typeof kind === 'string' && Object.hasOwn(shapes, kind) ? shapes[kind] : undefined;
    if (!shape) return { refused: `a message of an unknown kind (${typeof kind === 'string' ? JSON.stringify(kind.slice(0, 40)) : typeof kind})` };
    if (!shape(fields)) return { refused: `a malformed "${kind}" message` };
    return { message: fields };
  }
}
