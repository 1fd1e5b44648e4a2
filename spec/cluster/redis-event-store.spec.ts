import { expect } from 'chai';
import { PhantomError } from '../../lib/core/errors';
import { uniqueId } from '../../lib/core/unique-id';
import { RedisConnections } from '../../lib/cluster/redis-connections';
import { RedisEventStore, type RedisEventStoreOptions } from '../../lib/cluster/redis-event-store';
import type { RedisLink } from '../../lib/cluster/redis-link';
import type { StreamRef } from '../../lib/entries/seams';
import { behavesAsEventStore, note, Recorder } from '../protocol/seams/event-store.contract';
import { eventually } from '../support/eventually';
import { ownRedis, requireRedis, sharedRedis } from '../support/redis.fixture';

const linkOf = (node: RedisConnections, prefix: string): RedisLink => ({ commands: node.commands, channels: node.channels, prefix });

describe('RedisEventStore', () => {
  requireRedis();

  let nodeA: RedisConnections;
  let nodeB: RedisConnections;
  let prefix: string;
  let stream: StreamRef;

  before(async () => {
    const { url } = await sharedRedis();
    [nodeA, nodeB] = [new RedisConnections({ url }), new RedisConnections({ url })];
    await Promise.all([nodeA.open(), nodeB.open()]);
  });

  after(async () => {
    await Promise.all([nodeA?.close(), nodeB?.close()]);
  });

  beforeEach(() => {
    prefix = `spec:${uniqueId()}:`;
    stream = { id: `stream-${uniqueId()}`, sessionId: 'session-1' };
  });

  const storeOn = (node: RedisConnections, options?: RedisEventStoreOptions) => new RedisEventStore(linkOf(node, prefix), options);

  context('as an EventStore', () => {
    behavesAsEventStore({ open: (options) => new RedisEventStore(linkOf(nodeA, `spec:${uniqueId()}:`), options) });
  });

  context('when a stream written on one node is followed on another', () => {
    it('hears each event appended on the writing node, once and in order, then the end made there', async () => {
      const [writer, reader] = [storeOn(nodeA), storeOn(nodeB)];
      const priming = await writer.append(stream, null);
      await writer.append(stream, note(1));
      expect(await reader.streamOf(priming)).to.deep.equal(stream);
      const follower = new Recorder();
      reader.tail(priming, follower);
      await follower.heard(1);
      for (const n of [2, 3, 4]) await writer.append(stream, note(n));
      await writer.end(stream.id);
      await follower.ended();
      expect(follower.messages).to.deep.equal([1, 2, 3, 4].map(note));
      expect(follower.events.map((event) => event.id)).to.deep.equal((await writer.after(priming)).map((event) => event.id));
      expect(reader.followerCount).to.equal(0);
    });

    it('ends the follower when the writing node drops the stream', async () => {
      const [writer, reader] = [storeOn(nodeA), storeOn(nodeB)];
      const priming = await writer.append(stream, null);
      const follower = new Recorder();
      reader.tail(priming, follower);
      await writer.append(stream, note(1));
      await follower.heard(1);
      await writer.dropStream(stream.id);
      await follower.ended();
      expect(follower.messages).to.deep.equal([note(1)]);
    });
  });

  describe('keys in Redis', () => {
    it('expire ttlMs after the stream\'s last append or end', async () => {
      const store = storeOn(nodeA, { ttlMs: 60_000 });
      await store.append(stream, null);
      await store.append(stream, note(1));
      await store.end(stream.id);
      const keys = await nodeA.commands.keys(`${prefix}*`);
      expect(keys).to.have.length(2);
      for (const key of keys) expect(await nodeA.commands.pttl(key), key).to.be.within(1, 60_000);
    });

    context('when a stream\'s keys expired', () => {
      it('forgets the stream, and ends its followers', async () => {
        const store = storeOn(nodeA, { ttlMs: 100, followerCheckMs: 20 });
        const priming = await store.append(stream, null);
        const follower = new Recorder();
        store.tail(priming, follower);
        await store.append(stream, note(1));
        await follower.heard(1);
        await follower.ended();
        expect(await store.streamOf(priming)).to.equal(undefined);
        expect(await store.after(priming)).to.deep.equal([]);
      });
    });
  });

  context('when Redis goes away and comes back', () => {
    it('rejects with a clear error meanwhile, ends a follower it cannot serve, and works again once Redis is back', async () => {
      const redis = await ownRedis();
      const node = new RedisConnections({ url: redis.url });
      try {
        await node.open();
        const store = storeOn(node);
        const priming = await store.append(stream, null);
        await redis.stop();
        for (const call of [() => store.append(stream, note(1)), () => store.end(stream.id), () => store.streamOf(priming), () => store.after(priming), () => store.dropStream(stream.id)]) {
          const outcome = await call().then(() => undefined, (error: unknown) => error);
          expect(outcome).to.be.instanceOf(PhantomError).and.deep.include({ code: 'redis_unavailable' });
        }
        const follower = new Recorder();
        store.tail(priming, follower);
        await follower.ended();
        await redis.start();
        let again = '';
        await eventually('the store works again', async () => {
          again = await store.append(stream, null);
          return true;
        });
        await store.append(stream, note(2));
        expect((await store.after(again)).map((event) => event.message)).to.deep.equal([note(2)]);
      } finally {
        await node.close();
        await redis.stop();
      }
    });
  });
});
