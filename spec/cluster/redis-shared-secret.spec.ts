import { expect } from 'chai';
import Redis from 'ioredis';
import { redis } from '../../lib/entries/redis';
import type { SharedStores } from '../../lib/entries/seams';
import { uniqueId } from '../../lib/core/unique-id';
import { eventually } from '../support/eventually';
import { ownRedis, requireRedis, sharedRedis } from '../support/redis.fixture';

/** A server's view of the shared secret: the last one its store told it. */
async function opened(url: string, keyPrefix: string): Promise<{ stores: SharedStores; secret: () => string | undefined }> {
  const stores = redis(url, { keyPrefix });
  await stores.open();
  let heard: string | undefined;
  stores.onSecret((secret) => (heard = secret.toString('hex')));
  return { stores, secret: () => heard };
}

describe('redis()', () => {
  requireRedis();

  describe('#onSecret', () => {
    const open: SharedStores[] = [];
    const node = async (url: string, prefix: string) => {
      const made = await opened(url, prefix);
      open.push(made.stores);
      return made;
    };

    afterEach(async () => {
      await Promise.all(open.splice(0).map((stores) => stores.close()));
    });

    context('when several servers open on one Redis and prefix', () => {
      it('tells each the same secret, made by the first; another prefix has another', async () => {
        const { url } = await sharedRedis();
        const prefix = `spec:${uniqueId()}:`;
        const [a, b] = await Promise.all([node(url, prefix), node(url, prefix)]);
        const other = await node(url, `spec:${uniqueId()}:`);
        expect(a.secret()).to.be.a('string').with.length(64);
        expect(b.secret()).to.equal(a.secret());
        expect(other.secret()).to.be.a('string').and.not.equal(a.secret());
      });
    });

    context('when Redis restarts empty under them', () => {
      it('puts the secret they hold back, so a server opening afterwards shares it too', async function () {
        this.timeout(20_000);
        const own = await ownRedis();
        try {
          const prefix = `spec:${uniqueId()}:`;
          const [a, b] = [await node(own.url, prefix), await node(own.url, prefix)];
          const before = a.secret();
          await own.stop();
          await own.start();
          const observer = new Redis(own.url, { lazyConnect: true });
          await observer.connect();
          try {
            await eventually('the secret back in Redis', async () => (await observer.get(`${prefix}secret`)) !== null, 10_000);
          } finally {
            observer.disconnect();
          }
          const late = await node(own.url, prefix);
          expect(late.secret()).to.equal(before);
          expect([a.secret(), b.secret()]).to.deep.equal([before, before]);
        } finally {
          await Promise.all(open.splice(0).map((stores) => stores.close()));
          await own.stop();
        }
      });
    });
  });
});
