import type { Redis } from 'ioredis';
import { uniqueId } from '../../lib/core/unique-id';
import type { RedisChannels } from '../../lib/cluster/redis-channels';

/**
 * The next time `client` emits `event` ('close', 'ready'). Not `events.once`: that rejects on the
 * 'error' events a reconnecting ioredis client emits on the way.
 */
export function nextEvent(client: Redis, event: 'close' | 'ready'): Promise<void> {
  return new Promise((resolve) => client.once(event, () => resolve()));
}

/** How many connections Redis counts as subscribed to `channel` (PUBSUB NUMSUB). */
export async function subscribersOf(commands: Redis, channel: string): Promise<number> {
  const [, count] = (await commands.pubsub('NUMSUB', channel)) as [string, number];
  return Number(count);
}

/** A key prefix of the test's own: specs sharing a Redis keep apart by prefix, never by flushing. */
export function specPrefix(): string {
  return `phantom-spec:${uniqueId()}:`;
}

/**
 * Resolves once everything `commands` published before the call has reached the listeners of
 * `channels`. Redis runs one connection's commands in order and writes a subscriber's messages in
 * the order they were published, so a marker published last arrives last.
 */
export async function deliveredBetween(commands: Redis, channels: RedisChannels, prefix: string): Promise<void> {
  const marker = `${prefix}spec:delivered:${uniqueId()}`;
  let arrived!: () => void;
  const heard = new Promise<void>((resolve) => (arrived = resolve));
  const leave = await channels.listen(marker, () => arrived());
  try {
    await commands.publish(marker, '');
    await heard;
  } finally {
    await leave();
  }
}

/** Waits, a bounded number of times, for what Redis reports to come true. */
export async function until(condition: () => Promise<boolean>, tries = 200): Promise<void> {
  for (let tried = 0; tried < tries; tried += 1) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`not true after ${tries} tries`);
}
