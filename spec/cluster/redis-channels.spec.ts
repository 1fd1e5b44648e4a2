import { expect } from 'chai';
import { RedisConnections } from '../../lib/cluster/redis-connections';
import { ownRedis, requireRedis, sharedRedis } from '../support/redis.fixture';
import { deliveredBetween, nextEvent, specPrefix, subscribersOf, until } from '../support/redis-clients';

const failureOf = (promise: Promise<unknown>): Promise<unknown> => promise.then(() => undefined, (error: unknown) => error);

describe('RedisChannels', () => {
  requireRedis();

  let connections: RedisConnections;
  let prefix: string;
  let channel: string;

  /** What the listener hears, and how to stop it, once it listens. */
  async function listener(name = channel): Promise<{ heard: string[]; stop: () => Promise<void> }> {
    const heard: string[] = [];
    const stop = await connections.channels.listen(name, (message) => { heard.push(message); });
    return { heard, stop };
  }

  const delivered = () => deliveredBetween(connections.commands, connections.channels, prefix);
  const subscribers = () => subscribersOf(connections.commands, channel);

  async function open(url?: string): Promise<void> {
    connections = new RedisConnections({ url: url ?? (await sharedRedis()).url, keyPrefix: prefix });
    await connections.open();
  }

  beforeEach(() => {
    prefix = specPrefix();
    channel = `${prefix}channel`;
  });

  afterEach(async () => {
    await connections?.close();
  });

  describe('#listen', () => {
    context('when two listeners listen to a channel', () => {
      it('subscribes the connection once, and both hear each message', async () => {
        await open();
        const [one, two] = await Promise.all([listener(), listener()]);
        await connections.commands.publish(channel, 'hello');
        await delivered();
        expect([one.heard, two.heard]).to.deep.equal([['hello'], ['hello']]);
        expect(await subscribers()).to.equal(1);
        expect(connections.channels.channelCount).to.equal(1);
      });
    });

    context('when one of two listeners leaves', () => {
      it('keeps the channel, and the other goes on hearing', async () => {
        await open();
        const [leaving, staying] = await Promise.all([listener(), listener()]);
        await leaving.stop();
        await connections.commands.publish(channel, 'still here');
        await delivered();
        expect(await subscribers()).to.equal(1);
        expect([leaving.heard, staying.heard]).to.deep.equal([[], ['still here']]);
      });
    });

    context('when both leave', () => {
      it('unsubscribes the channel', async () => {
        await open();
        const [one, two] = await Promise.all([listener(), listener()]);
        await one.stop();
        await two.stop();
        await two.stop();
        expect(await subscribers()).to.equal(0);
        expect(connections.channels.channelCount).to.equal(0);
      });
    });

    context('when the last listener leaves and another comes at once', () => {
      it('ends subscribed, and the newcomer hears', async () => {
        await open();
        const leaving = await listener();
        const left = leaving.stop();
        const coming = await listener();
        await left;
        await connections.commands.publish(channel, 'welcome');
        await delivered();
        expect(await subscribers()).to.equal(1);
        expect(coming.heard).to.deep.equal(['welcome']);
      });
    });

    context('when several channels are listened to at once', () => {
      it('asks Redis for each without waiting for the answers to the others', async () => {
        await open();
        const channels = [`${prefix}one`, `${prefix}two`, `${prefix}three`];
        // Unread answers: a SUBSCRIBE that waited for the one before would never be sent.
        connections.subscriber.stream.pause();
        const listening = channels.map((name) => listener(name));
        try {
          await until(async () => (await Promise.all(channels.map((name) => subscribersOf(connections.commands, name)))).every((count) => count === 1));
        } finally {
          connections.subscriber.stream.resume();
        }
        await Promise.all(listening);
        expect(connections.channels.channelCount).to.equal(3);
      });
    });

    context('when a listener throws', () => {
      it('still calls the others', async () => {
        await open();
        await connections.channels.listen(channel, () => { throw new Error('boom'); });
        const staying = await listener();
        await connections.commands.publish(channel, 'one');
        await connections.commands.publish(channel, 'two');
        await delivered();
        expect(staying.heard).to.deep.equal(['one', 'two']);
      });
    });

    context('when Redis cannot be told', () => {
      it('rejects every listener that waited for the SUBSCRIBE, and subscribes afresh once Redis is back', async () => {
        const redis = await ownRedis();
        try {
          await open(redis.url);
          const closed = [nextEvent(connections.commands, 'close'), nextEvent(connections.subscriber, 'close')];
          await redis.stop();
          await Promise.all(closed);
          const failures = await Promise.all([failureOf(listener()), failureOf(listener())]);
          expect(failures.map((failure) => failure instanceof Error)).to.deep.equal([true, true]);
          expect(connections.channels.channelCount).to.equal(0);

          const back = [nextEvent(connections.commands, 'ready'), nextEvent(connections.subscriber, 'ready')];
          await redis.start();
          await Promise.all(back);
          const later = await listener();
          await connections.commands.publish(channel, 'back');
          await delivered();
          expect(await subscribers()).to.equal(1);
          expect(later.heard).to.deep.equal(['back']);
        } finally {
          await connections.close();
          await redis.stop();
        }
      });
    });

    context('when the last listener leaves while Redis is away', () => {
      it('unsubscribes the channel once Redis is back, though ioredis subscribes it again', async () => {
        const redis = await ownRedis();
        try {
          await open(redis.url);
          const gone = await listener();
          const closed = [nextEvent(connections.commands, 'close'), nextEvent(connections.subscriber, 'close')];
          await redis.stop();
          await Promise.all(closed);
          await gone.stop();

          const back = [nextEvent(connections.commands, 'ready'), nextEvent(connections.subscriber, 'ready')];
          await redis.start();
          await Promise.all(back);
          // Queued after what the connection does on its return.
          await delivered();
          expect(await subscribers()).to.equal(0);
        } finally {
          await connections.close();
          await redis.stop();
        }
      });
    });
  });
});
