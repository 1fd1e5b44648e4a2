import { expect } from 'chai';
import Redis from 'ioredis';
import { PhantomError } from '../../lib';
import { redis } from '../../lib/entries/redis';
import { uniqueId } from '../../lib/core/unique-id';
import { until } from '../support/redis-clients';
import { requireRedis, sharedRedis } from '../support/redis.fixture';

describe('redis()', () => {
  requireRedis();

  /** How many connections Redis holds under `name` (CLIENT SETNAME, from the connectionName option). */
  async function connectionsNamed(url: string, name: string): Promise<number> {
    const observer = new Redis(url, { lazyConnect: true });
    await observer.connect();
    try {
      const list = (await observer.client('LIST')) as string;
      return list.split('\n').filter((line) => line.includes(` name=${name} `)).length;
    } finally {
      observer.disconnect();
    }
  }

  describe('#close', () => {
    context('when something uses a store after the close (a stream\'s grace timer firing late)', () => {
      it('fails that call naming the closed connections, and connects to Redis no more', async () => {
        const { url } = await sharedRedis();
        const name = `closed-${uniqueId()}`;
        const stores = redis(url, { keyPrefix: `spec:${uniqueId()}:`, options: { connectionName: name } });
        await stores.open();
        const events = stores.events();
        expect(await connectionsNamed(url, name)).to.equal(2);
        await stores.close();

        const late = await events.dropStream(`stream-${uniqueId()}`).then(() => undefined, (error: unknown) => error);
        expect(late).to.be.instanceOf(PhantomError);
        expect(((late as PhantomError).cause as PhantomError).code).to.equal('redis_closed');
        // QUIT is answered before Redis lets the connection go.
        await until(async () => (await connectionsNamed(url, name)) === 0);
      });
    });
  });
});
