import { expect } from 'chai';
import { PhantomError } from '../../lib/core/errors';
import { uniqueId } from '../../lib/core/unique-id';
import { RedisConnections } from '../../lib/cluster/redis-connections';
import type { RedisLink } from '../../lib/cluster/redis-link';
import { RedisSessionStore, type RedisSessionStoreOptions } from '../../lib/cluster/redis-session-store';
import type { SessionChange, SessionState } from '../../lib/entries/seams';
import { behavesAsSessionStore, sessionState } from '../protocol/seams/session-store.contract';
import { eventually } from '../support/eventually';
import { ownRedis, requireRedis, sharedRedis } from '../support/redis.fixture';

const subscribe = (uri: string): SessionChange => (current) => ({ ...current, subscriptions: [...current.subscriptions, uri] });

/** Two "nodes": each its own connections to one Redis, as two replicas would hold. */
async function openNodes(url: string): Promise<[RedisConnections, RedisConnections]> {
  const nodes: [RedisConnections, RedisConnections] = [new RedisConnections({ url }), new RedisConnections({ url })];
  await Promise.all(nodes.map((node) => node.open()));
  return nodes;
}

const linkOf = (node: RedisConnections, prefix: string): RedisLink => ({ commands: node.commands, channels: node.channels, prefix });

describe('RedisSessionStore', () => {
  requireRedis();

  let nodeA: RedisConnections;
  let nodeB: RedisConnections;
  let prefix: string;
  let time: number;
  const stores: RedisSessionStore[] = [];

  before(async () => {
    [nodeA, nodeB] = await openNodes((await sharedRedis()).url);
  });

  after(async () => {
    await Promise.all([nodeA?.close(), nodeB?.close()]);
  });

  beforeEach(() => {
    prefix = `spec:${uniqueId()}:`;
    time = 1_700_000_000_000;
  });

  afterEach(async () => {
    await Promise.all(stores.splice(0).map((store) => store.close()));
  });

  /** A store of `node` on this test's prefix and fake clock, listening to the other nodes' expiries. */
  async function storeOn(node: RedisConnections, options: Partial<RedisSessionStoreOptions> = {}): Promise<RedisSessionStore> {
    const store = new RedisSessionStore(linkOf(node, prefix), { idleMs: 1_000, isBusy: () => false, busySessions: () => [], now: () => time, ...options });
    stores.push(store);
    await store.listening();
    return store;
  }

  function heardBy(store: RedisSessionStore): string[] {
    const heard: string[] = [];
    store.onExpired((id) => heard.push(id));
    return heard;
  }

  const keysUnderPrefix = () => nodeA.commands.keys(`${prefix}*`);
  const sessionKey = (id: string) => `${prefix}{sessions}:session:${id}`;

  context('as a SessionStore', () => {
    behavesAsSessionStore({
      open: async (settings) => {
        const store = new RedisSessionStore(linkOf(nodeA, `spec:${uniqueId()}:`), { ...settings, busySessions: () => [] });
        await store.listening();
        return store;
      },
    });
  });

  describe('#update', () => {
    context('when two nodes change one session at once, many times', () => {
      it('keeps every change of both, and indexes each subscription', async () => {
        const [a, b] = [await storeOn(nodeA), await storeOn(nodeB)];
        await a.save(sessionState('s1', time));
        const uris = Array.from({ length: 40 }, (_, i) => `x://${i}`);
        await Promise.all(uris.map((uri, i) => (i % 2 === 0 ? a : b).update('s1', subscribe(uri))));
        expect((await b.load('s1'))!.subscriptions).to.have.members(uris);
        for (const uri of uris) expect(await a.subscribers(uri), uri).to.deep.equal(['s1']);
      });
    });

    context('when another node changed the session between this one\'s read and write', () => {
      it('runs the change again on the fresher state, keeping both', async () => {
        const a = await storeOn(nodeA);
        await a.save(sessionState('s1', time));
        const seen: string[][] = [];
        const next = await a.update('s1', (current) => {
          seen.push([...current.subscriptions]);
          // Another node's write, queued on this node's connection ahead of this change's own.
          if (seen.length === 1) void nodeA.commands.set(sessionKey('s1'), storedJson({ ...sessionState('s1', time), subscriptions: ['x://other'] }));
          return { ...current, subscriptions: [...current.subscriptions, 'x://mine'] };
        });
        expect(seen).to.deep.equal([[], ['x://other']]);
        expect(next!.subscriptions).to.deep.equal(['x://other', 'x://mine']);
        expect((await a.load('s1'))!.subscriptions).to.deep.equal(['x://other', 'x://mine']);
      });
    });

    context('when other nodes win every race', () => {
      it('gives up after maxUpdateAttempts tries with a clear error', async () => {
        const a = await storeOn(nodeA, { maxUpdateAttempts: 5 });
        await a.save(sessionState('s1', time));
        let tries = 0;
        const outcome = await a.update('s1', (current) => {
          tries += 1;
          void nodeA.commands.set(sessionKey('s1'), storedJson({ ...sessionState('s1', time), subscriptions: [`x://other-${tries}`] }));
          return { ...current, initialized: true };
        }).then(() => undefined, (error: unknown) => error);
        expect(tries).to.equal(5);
        expect(outcome).to.be.instanceOf(PhantomError).and.deep.include({ code: 'session_update_conflict' });
        expect((await a.load('s1'))!.initialized).to.equal(false);
      });
    });
  });

  describe('#touch', () => {
    it('marks a session active in Redis at most once per touchIntervalMs on a node, and again once it has passed', async () => {
      const store = await storeOn(nodeA, { idleMs: 1_000, touchIntervalMs: 100 });
      await store.save(sessionState('s1', time));
      const activeAt = async () => Number(await nodeA.commands.zscore(`${prefix}{sessions}:active`, 's1'));
      time += 10;
      await store.touch('s1');
      expect(await activeAt()).to.equal(time);
      const first = time;
      time += 50;
      await store.touch('s1');
      expect(await activeAt(), 'within the interval: not sent').to.equal(first);
      time += 60;
      await store.touch('s1');
      expect(await activeAt(), 'past it: sent').to.equal(time);
    });
  });

  describe('#onExpired', () => {
    context('when one node finds a session idle past its lifetime', () => {
      it('is heard once on every node', async () => {
        const [a, b] = [await storeOn(nodeA), await storeOn(nodeB)];
        const [heardOnA, heardOnB] = [heardBy(a), heardBy(b)];
        await a.save(sessionState('s1', time));
        time += 1_001;
        expect(await b.count()).to.equal(0);
        await a.save(sessionState('s2', time));
        time += 1_001;
        expect(await b.load('s2')).to.equal(undefined);
        await eventually('both nodes hear both expiries', () => heardOnA.length >= 2 && heardOnB.length >= 2);
        expect(await a.count()).to.equal(0);
        expect(heardOnA).to.deep.equal(['s1', 's2']);
        expect(heardOnB).to.deep.equal(['s1', 's2']);
      });
    });

    context('when a session is busy on another node, however long', () => {
      it('never expires: that node keeps it active (its heartbeat), until its request ends', async () => {
        const busyOnA = new Set<string>();
        const idleMs = 600;
        const a = await storeOn(nodeA, { idleMs, isBusy: (id) => busyOnA.has(id), busySessions: () => busyOnA });
        const b = await storeOn(nodeB, { idleMs });
        const [heardOnA, heardOnB] = [heardBy(a), heardBy(b)];
        await a.save(sessionState('s1', time));
        busyOnA.add('s1');
        for (let step = 1; step <= 6; step += 1) {
          time += idleMs / 2;
          await eventually(`node A's heartbeat after ${step} half idle periods`, async () => (await b.load('s1'))?.lastActiveAt === time);
        }
        expect(await b.count()).to.equal(1);
        busyOnA.delete('s1');
        time += idleMs + 1;
        expect(await b.count()).to.equal(0);
        await eventually('node A hears the expiry', () => heardOnA.length > 0);
        expect([heardOnA, heardOnB]).to.deep.equal([['s1'], ['s1']]);
      });
    });

    context('when Redis dropped a session before any node swept it', () => {
      it('raises it when the session is next asked for, on every node, and frees what was left of it', async () => {
        const idleMs = 50;
        const inUse = (id: string) => id === 's0';
        // touchIntervalMs 0: the stores' clock stands still here, and b's touches must reach Redis.
        const a = await storeOn(nodeA, { idleMs, sweepIntervalMs: 50, isBusy: inUse, touchIntervalMs: 0 });
        const b = await storeOn(nodeB, { idleMs, sweepIntervalMs: 50, isBusy: inUse, touchIntervalMs: 0 });
        const heardOnB = heardBy(b);
        await a.save(sessionState('s0', time));
        await a.save(sessionState('s1', time, ['x://a']));
        // Redis's TTL runs on the real clock; the stores' clock stays put, so no sweep expires s1
        // first. Meanwhile another session is in use, as on any live deployment.
        await eventually('Redis drops the session', async () => {
          await b.touch('s0');
          return (await nodeA.commands.exists(sessionKey('s1'))) === 0;
        });
        time += 10 * idleMs;
        expect(await a.load('s1')).to.equal(undefined);
        await eventually('node B hears the expiry', () => heardOnB.length > 0);
        expect(heardOnB).to.deep.equal(['s1']);
        expect(await b.subscribers('x://a')).to.deep.equal([]);
        await b.delete('s0');
        expect(await keysUnderPrefix()).to.deep.equal([]);
      });
    });
  });

  describe('keys in Redis', () => {
    context('when sessions end (deleted or expired)', () => {
      it('leaves none behind', async () => {
        const a = await storeOn(nodeA);
        await a.save(sessionState('s1', time, ['x://a', 'x://b']));
        await a.save(sessionState('s2', time, ['x://b']));
        await a.update('s2', subscribe('x://c'));
        expect(await keysUnderPrefix()).to.have.length.greaterThan(0);
        await a.delete('s1');
        time += 1_001;
        expect(await a.count()).to.equal(0);
        expect(await keysUnderPrefix()).to.deep.equal([]);
      });
    });

    context('when a session is saved or touched', () => {
      it('gives its state a Redis TTL beyond the idle time, so Redis frees what nobody touches', async () => {
        const a = await storeOn(nodeA, { idleMs: 60_000, sweepIntervalMs: 5_000 });
        await a.save(sessionState('s1', time));
        await nodeA.commands.pexpire(sessionKey('s1'), 5_000);
        await a.touch('s1');
        const ttl = await nodeA.commands.pttl(sessionKey('s1'));
        expect(ttl).to.be.greaterThan(60_000).and.at.most(70_000);
      });
    });
  });

  context('when Redis goes away and comes back', () => {
    it('rejects every call with a clear error meanwhile, and works again once Redis is back', async () => {
      const redis = await ownRedis();
      const node = new RedisConnections({ url: redis.url });
      try {
        await node.open();
        const store = new RedisSessionStore(linkOf(node, prefix), { idleMs: 150, sweepIntervalMs: 20, isBusy: () => true, busySessions: () => ['s1'] });
        stores.push(store);
        await store.save(sessionState('s1', Date.now()));
        await redis.stop();
        const calls: Array<() => Promise<unknown>> = [
          () => store.load('s1'), () => store.save(sessionState('s2', Date.now())), () => store.update('s1', subscribe('x://a')),
          () => store.delete('s1'), () => store.touch('s1'), () => store.subscribers('x://a'), () => store.count(),
        ];
        for (const call of calls) {
          const outcome = await call().then(() => undefined, (error: unknown) => error);
          expect(outcome).to.be.instanceOf(PhantomError).and.deep.include({ code: 'redis_unavailable' });
        }
        // The sweep and the heartbeat run (and fail) while Redis is away, crashing nothing.
        await new Promise((resolve) => setTimeout(resolve, 100));
        await redis.start();
        await eventually('the store works again', async () => {
          await store.save(sessionState('s1', Date.now()));
          return true;
        });
        expect(await store.update('s1', subscribe('x://a'))).to.deep.include({ subscriptions: ['x://a'] });
        expect(await store.subscribers('x://a')).to.deep.equal(['s1']);
        expect(await store.count()).to.equal(1);
      } finally {
        await node.close();
        await redis.stop();
      }
    });
  });
});

/** A session as the store keeps it in Redis (lastActiveAt lives in the activity index). */
function storedJson(state: SessionState): string {
  const { lastActiveAt, ...stored } = state;
  void lastActiveAt;
  return JSON.stringify(stored);
}
