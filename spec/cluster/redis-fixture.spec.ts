import { expect } from 'chai';
import Redis from 'ioredis';
import { ownRedis, requireRedis, sharedRedis } from '../support/redis.fixture';

describe('the Redis the specs use (spec/support/redis.fixture)', () => {
  requireRedis();

  it('answers commands at the URL it gives', async () => {
    const client = new Redis((await sharedRedis()).url, { lazyConnect: true });
    await client.connect();
    try {
      expect(await client.ping()).to.equal('PONG');
    } finally {
      client.disconnect();
    }
  });

  it('starts an own server again, empty, on the same port after a stop', async () => {
    const redis = await ownRedis();
    const client = new Redis(redis.url, { maxRetriesPerRequest: 1, retryStrategy: () => 50 });
    try {
      await client.set('k', 'v');
      await redis.stop();
      await redis.start();
      expect(await client.get('k')).to.equal(null);
    } finally {
      client.disconnect();
      await redis.stop();
    }
  });
});
