import type { Redis } from 'ioredis';
import { STDERR_DIAGNOSTICS, WarningThrottle, type Diagnostics, type WarningRateLimit } from '../core/diagnostics';
import { PhantomError, StoreUnavailableError } from '../core/errors';
import type { BusSubscription, ServerListener, ServerMessage, SessionBus, SessionListener, SessionMessage } from '../protocol/seams/session-bus';
import { BusMessageCodec, type Decoded } from './bus-message.codec';
import { RedisBusSubscription } from './redis-bus-subscription';
import type { RedisChannels } from './redis-channels';
import type { RedisConnections } from './redis-connections';

/** Limits and reporting of the Redis bus. */
export interface RedisSessionBusOptions {
  /**
   * The largest message sent or accepted, in bytes of its JSON (default 4 MiB + 1 KiB: a
   * client's answer as large as the HTTP transport's default body limit, 4 MiB, with the bus's
   * envelope). Raise it with `maxBodyBytes`. A larger message is refused to its sender and
   * dropped by a receiver.
   */
  readonly maxMessageBytes?: number;
  /**
   * A secret every replica is given (at least 32 bytes; never stored in Redis): messages are then
   * signed with it (HMAC-SHA256 over channel and message) and those without a valid signature are
   * dropped and reported. Without it, anyone who can PUBLISH to the Redis can speak for a node.
   */
  readonly secret?: string | Buffer;
  /** Where dropped messages are reported (default stderr). */
  readonly diagnostics?: Diagnostics;
  /** How many reports of dropped messages go out per window (default 10 a minute). */
  readonly warningRateLimit?: WarningRateLimit;
}

/** The default `maxBusMessageBytes`, 4 MiB + 1 KiB: a 4 MiB answer (the default `maxBodyBytes`) with the bus's envelope. */
export const DEFAULT_BUS_MAX_MESSAGE_BYTES = 4 * 1024 * 1024 + 1024;

/**
 * The session bus between replicas, on Redis pub/sub: one channel per session
 * (`<prefix>bus:session:<id>`), subscribed while this node has a listener for the session, and
 * one for server-wide messages (`<prefix>bus:broadcast`); messages as JSON.
 *
 * This node's own listeners hear its messages through Redis too, not directly: one path and one
 * order (Redis's) for every message whoever sent it, never twice, and a message Redis did not
 * take reaches nobody. `publish` and `broadcast` resolve once Redis took the message, not once
 * it was delivered.
 *
 * Subscribing is asynchronous: await a subscription's `ready` before sending the client a request
 * whose answer may land on another node. When Redis is down, sending rejects with a
 * `redis_unavailable` error and so does `ready`; the subscriptions carry on by themselves once
 * Redis is back. `close()` stops listening; the connections are their owner's to close.
 */
export class RedisSessionBus implements SessionBus {
  private readonly commands: Redis;
  private readonly subscriber: Redis;
  private readonly channels: RedisChannels;
  private readonly sessionChannelPrefix: string;
  private readonly broadcastChannel: string;
  private readonly codec: BusMessageCodec;
  /** Each delivered message as decoded, while its delivery object lives (see `once`). */
  private readonly decoded = new WeakMap<object, Decoded<unknown>>();
  private readonly warnings: WarningThrottle;
  private readonly subscriptions = new Set<RedisBusSubscription>();
  private closed = false;
  /** The subscriber connection is back: subscriptions that could not be made are tried again. */
  private readonly retry = () => {
    for (const subscription of this.subscriptions) subscription.retry();
  };

  /** Made by {@link redis}, on the connections it shares between the stores and the bus. @hidden */
  constructor(connections: RedisConnections, options: RedisSessionBusOptions = {}) {
    const maxMessageBytes = options.maxMessageBytes ?? DEFAULT_BUS_MAX_MESSAGE_BYTES;
    if (!Number.isInteger(maxMessageBytes) || maxMessageBytes < 1) {
      throw new PhantomError('redis_bus_invalid', `RedisSessionBus: maxMessageBytes must be a positive integer, not ${maxMessageBytes}`);
    }
    // Held from the start: the connections' getters would make new clients once they are closed.
    ({ commands: this.commands, subscriber: this.subscriber, channels: this.channels } = connections);
    this.sessionChannelPrefix = `${connections.prefix}bus:session:`;
    this.broadcastChannel = `${connections.prefix}bus:broadcast`;
    this.codec = new BusMessageCodec(maxMessageBytes, busSecret(options.secret));
    this.warnings = new WarningThrottle(options.diagnostics ?? STDERR_DIAGNOSTICS, options.warningRateLimit);
    this.subscriber.on('ready', this.retry);
  }

  publish(sessionId: string, message: SessionMessage): Promise<void> {
    return this.send(this.sessionChannelPrefix + sessionId, message, sessionLabel(sessionId));
  }

  subscribe(sessionId: string, listener: SessionListener): BusSubscription {
    const channel = this.sessionChannelPrefix + sessionId;
    return this.listen(channel, sessionLabel(sessionId), (text, delivery) => {
      const decoded = this.once(delivery, () => this.codec.decodeSession(text, channel), 'a session channel');
      if ('message' in decoded) call(listener, decoded.message);
    });
  }

  broadcast(message: ServerMessage): Promise<void> {
    return this.send(this.broadcastChannel, message, 'every node');
  }

  onBroadcast(listener: ServerListener): BusSubscription {
    return this.listen(this.broadcastChannel, 'the broadcast channel', (text, delivery) => {
      const decoded = this.once(delivery, () => this.codec.decodeServer(text, this.broadcastChannel), 'the broadcast channel');
      if ('message' in decoded) call(listener, decoded.message);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    this.subscriber.off('ready', this.retry);
    const stopping = [...this.subscriptions].map((subscription) => subscription.stop());
    this.subscriptions.clear();
    await Promise.all(stopping);
  }

  private async send(channel: string, message: SessionMessage | ServerMessage, to: string): Promise<void> {
    if (this.closed) throw new PhantomError('redis_bus_closed', `The session bus is closed: "${message.kind}" to ${to} was not sent`);
    const encoded = this.codec.encode(message, channel);
    if ('refused' in encoded) throw new PhantomError('redis_bus_message_too_large', `The session bus did not send "${message.kind}" to ${to}: ${encoded.refused}`);
    try {
      await this.commands.publish(channel, encoded.text);
    } catch (error) {
      throw new StoreUnavailableError('redis_unavailable', `The session bus could not send "${message.kind}" to ${to} on Redis: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  }

  /**
   * A delivered message decoded (and checked) once, however many listeners of this bus hear it;
   * a refusal reported once.
   */
  private once<M>(delivery: object, decode: () => Decoded<M>, where: string): Decoded<M> {
    let decoded = this.decoded.get(delivery) as Decoded<M> | undefined;
    if (decoded) return decoded;
    decoded = decode();
    this.decoded.set(delivery, decoded);
    if ('refused' in decoded) this.dropped(decoded.refused, where);
    return decoded;
  }

  private listen(channel: string, label: string, hear: (text: string, delivery: object) => void): BusSubscription {
    if (this.closed) {
      const ready = Promise.reject(new PhantomError('redis_bus_closed', `The session bus is closed: ${label} is not listened to`));
      ready.catch(() => undefined);
      return Object.assign(() => {}, { ready });
    }
    const subscription = new RedisBusSubscription(this.channels, channel, label, hear);
    this.subscriptions.add(subscription);
    const stop = () => {
      if (this.subscriptions.delete(subscription)) void subscription.stop();
    };
    return Object.assign(stop, { ready: subscription.ready });
  }

  /** Anyone who can reach the Redis can publish on its channels: what is not ours is dropped. */
  private dropped(why: string, where: string): void {
    this.warnings.warn('bus message dropped', `session bus: dropped ${why} on ${where}`);
  }
}

/** The bus secret as bytes; one shorter than 32 bytes is refused (a guessable secret protects nothing). */
function busSecret(secret: string | Buffer | undefined): Buffer | undefined {
  if (secret === undefined) return undefined;
  const bytes = typeof secret === 'string' ? Buffer.from(secret, 'utf8') : secret;
  if (!Buffer.isBuffer(bytes) || bytes.length < 32) {
    throw new PhantomError('redis_bus_invalid', 'RedisSessionBus: the bus secret must be at least 32 bytes (e.g. openssl rand -base64 32)');
  }
  return bytes;
}

/** Enough of a session id to tell sessions apart in a report, not enough to use it. */
function sessionLabel(sessionId: string): string {
  return `session ${sessionId.slice(0, 8)}…`;
}

/** A listener reports its own failures (as in process): one that throws never stops the others. */
function call<M>(listener: (message: M) => void | Promise<void>, message: M): void {
  try {
    const pending = listener(message);
    if (pending) pending.catch(() => undefined);
  } catch {
    // See above.
  }
}
