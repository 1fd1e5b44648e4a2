import { createHmac, timingSafeEqual } from 'node:crypto';
import { uniqueId } from '../core/unique-id';
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

const NO_MAC = Object.freeze({ refused: 'a message without a valid MAC (busSecret)' });
const REPLAYED = Object.freeze({ refused: 'a signed message heard before (a replay)' });

/**
 * Senders whose last number is kept: every replica's bus, and one more for each restart (a
 * restarted node is a new sender). Past it the sender heard from least recently is forgotten.
 */
const MAX_SENDERS = 10_000;

/**
 * Messages on the wire between nodes: JSON, at most `maxBytes` (UTF-8) each. Anything on a
 * channel is checked before a listener sees it, since any client of the Redis can publish there.
 *
 * With a `secret` (one Redis never holds), each message is sent as `<mac> <sender>:<seq> <json>`,
 * the MAC an HMAC-SHA256 of the channel, the sender's stamp and the JSON, and a message without a
 * valid one is refused before it is parsed: a client of the Redis without the secret can no
 * longer speak for a node, and a message taken from one channel is refused on another. The stamp
 * stops replays: each sender (this codec, one per bus) numbers its messages, and Redis delivers
 * one connection's publishes to a subscriber in order, so a number not above the last one heard
 * from that sender is a message heard before. Decode each delivered message once (the bus does,
 * however many of its listeners hear it): a second decode of the same delivery is a replay.
 */
export class BusMessageCodec {
  /** This codec as a sender: its id, and the number of its last message. */
  private readonly sender = uniqueId();
  private sent = 0;
  /** The last number heard from each sender, the sender heard from least recently first. */
  private readonly heard = new Map<string, number>();

  constructor(private readonly maxBytes: number, private readonly secret?: Buffer) {}

  /** The text to publish on `channel`, or why it cannot be sent. */
  encode(message: SessionMessage | ServerMessage, channel: string): { readonly text: string } | { readonly refused: string } {
    const json = JSON.stringify(message);
    const text = this.secret ? this.signed(channel, json) : json;
    const bytes = Buffer.byteLength(text);
    return bytes > this.maxBytes ? { refused: `the message is ${bytes} bytes, more than maxMessageBytes (${this.maxBytes})` } : { text };
  }

  decodeSession(text: string, channel: string): Decoded<SessionMessage> {
    return this.decode(text, channel, SESSION_SHAPES) as Decoded<SessionMessage>;
  }

  decodeServer(text: string, channel: string): Decoded<ServerMessage> {
    return this.decode(text, channel, SERVER_SHAPES) as Decoded<ServerMessage>;
  }

  private signed(channel: string, json: string): string {
    this.sent += 1;
    const stamp = `${this.sender}:${this.sent}`;
    return `${this.mac(channel, stamp, json)} ${stamp} ${json}`;
  }

  private mac(channel: string, stamp: string, json: string): string {
    return createHmac('sha256', this.secret!).update(channel).update('\n').update(stamp).update('\n').update(json).digest('base64url');
  }

  /** The JSON of a message whose MAC is valid for `channel` and that was not heard before, or why not. */
  private verified(text: string, channel: string): { readonly json: string } | { readonly refused: string } {
    const stampEnd = text.indexOf(' ', MAC_LENGTH + 1);
    if (text[MAC_LENGTH] !== ' ' || stampEnd === -1) return NO_MAC;
    const stamp = text.slice(MAC_LENGTH + 1, stampEnd);
    const json = text.slice(stampEnd + 1);
    const given = Buffer.from(text.slice(0, MAC_LENGTH));
    const expected = Buffer.from(this.mac(channel, stamp, json));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return NO_MAC;
    const colon = stamp.lastIndexOf(':');
    const sender = stamp.slice(0, colon);
    const seq = Number(stamp.slice(colon + 1));
    const last = this.heard.get(sender);
    if (!Number.isSafeInteger(seq) || (last !== undefined && seq <= last)) return REPLAYED;
    this.heard.delete(sender);
    this.heard.set(sender, seq);
    if (this.heard.size > MAX_SENDERS) this.heard.delete(this.heard.keys().next().value as string);
    return { json };
  }

  private decode(received: string, channel: string, shapes: Readonly<Record<string, (fields: Fields) => boolean>>): Decoded<Fields> {
    // Checked before parsing, so an oversized message costs no parse; UTF-8 takes at least a byte
    // per UTF-16 unit, so only a text near the limit needs counting.
    if (received.length > this.maxBytes || (received.length * 3 > this.maxBytes && Buffer.byteLength(received) > this.maxBytes)) {
      return { refused: `a message larger than maxMessageBytes (${this.maxBytes})` };
    }
    const verified = this.secret ? this.verified(received, channel) : { json: received };
    if ('refused' in verified) return verified;
    const text = verified.json;
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
