import { expect } from 'chai';
import { PhantomError } from '../../lib/core/errors';
import { uniqueId } from '../../lib/core/unique-id';
import { RedisConnections } from '../../lib/cluster/redis-connections';
import { RedisTaskStore, type RedisTaskStoreOptions } from '../../lib/cluster/redis-task-store';
import type { TaskChange } from '../../lib/entries/seams';
import { behavesAsTaskStore, taskRecord } from '../protocol/seams/task-store.contract';
import { eventually } from '../support/eventually';
import { ownRedis, requireRedis, sharedRedis } from '../support/redis.fixture';

const answer = (key: string): TaskChange => (current) => ({ ...current, inputResponses: { ...current.inputResponses, [key]: { ok: key } } });

describe('RedisTaskStore', () => {
  requireRedis();

  let nodeA: RedisConnections;
  let nodeB: RedisConnections;
  let prefix: string;
  const stores: RedisTaskStore[] = [];

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
  });

  afterEach(async () => {
    await Promise.all(stores.splice(0).map((store) => store.close()));
  });

  /** A store of `node` (its own connections: another replica) on this test's prefix. */
  function storeOn(node: RedisConnections, options: RedisTaskStoreOptions = {}): RedisTaskStore {
    const store = new RedisTaskStore({ commands: node.commands, prefix }, options);
    stores.push(store);
    return store;
  }

  const keysUnderPrefix = () => nodeA.commands.keys(`${prefix}*`);
  const taskKey = (id: string) => `${prefix}{tasks}:task:${id}`;

  context('as a TaskStore', () => {
    behavesAsTaskStore({
      open: (settings) => {
        prefix = `spec:${uniqueId()}:`;
        return { store: storeOn(nodeA, settings), peer: storeOn(nodeB, settings) };
      },
    });
  });

  describe('#create', () => {
    context('when many nodes create tasks of one owner at once', () => {
      it('lets exactly maxActive of them in', async () => {
        const [a, b] = [storeOn(nodeA), storeOn(nodeB)];
        const now = Date.now();
        const created = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? a : b).create(taskRecord(`t${i}`, now), 5)));
        expect(created.filter(Boolean)).to.have.length(5);
        expect((await b.list('alice', undefined, 100))!.tasks).to.have.length(5);
      });
    });

    context('when the id is taken', () => {
      it('refuses with a clear error and keeps the task there', async () => {
        const a = storeOn(nodeA);
        const now = Date.now();
        await a.create(taskRecord('t1', now), 10);
        const outcome = await a.create(taskRecord('t1', now, { tool: 'other' }), 10).then(() => undefined, (error: unknown) => error);
        expect(outcome).to.be.instanceOf(PhantomError).and.deep.include({ code: 'task_exists' });
        expect(await a.get('t1')).to.deep.include({ tool: 'build' });
      });
    });
  });

  describe('#update', () => {
    context('when another node changed the task between this one\'s read and write', () => {
      it('runs the change again on the fresher record, keeping both', async () => {
        const [a, b] = [storeOn(nodeA), storeOn(nodeB)];
        const theirs = answer('theirs')(taskRecord('t1', Date.now()))!;
        await a.create(taskRecord('t1', theirs.createdAt), 10);
        const seen: string[][] = [];
        const next = await a.update('t1', (current) => {
          seen.push(Object.keys(current.inputResponses ?? {}));
          // Another node's write, queued on this node's connection ahead of this change's own.
          if (seen.length === 1) void nodeA.commands.multi().hset(taskKey('t1'), 'json', JSON.stringify(theirs)).hincrby(taskKey('t1'), 'v', 1).exec();
          return answer('mine')(current);
        });
        expect(seen).to.deep.equal([[], ['theirs']]);
        expect(Object.keys(next!.inputResponses!)).to.deep.equal(['theirs', 'mine']);
        expect(await b.get('t1')).to.deep.equal(next);
      });
    });

    context('when other nodes win every race', () => {
      it('gives up after maxUpdateAttempts tries with a clear error', async () => {
        const a = storeOn(nodeA, { maxUpdateAttempts: 4 });
        await a.create(taskRecord('t1', Date.now()), 10);
        let tries = 0;
        const outcome = await a.update('t1', (current) => {
          tries += 1;
          void nodeA.commands.hincrby(taskKey('t1'), 'v', 1);
          return { ...current, status: 'completed' };
        }).then(() => undefined, (error: unknown) => error);
        expect(tries).to.equal(4);
        expect(outcome).to.be.instanceOf(PhantomError).and.deep.include({ code: 'task_update_conflict' });
        expect(await a.get('t1')).to.deep.include({ status: 'working' });
      });
    });

    context('when the change gives the task another id or owner', () => {
      it('refuses, and the task stays as it was', async () => {
        const a = storeOn(nodeA);
        await a.create(taskRecord('t1', Date.now()), 10);
        for (const change of [{ id: 't2' }, { owner: 'mallory' }]) {
          const outcome = await a.update('t1', (current) => ({ ...current, ...change })).then(() => undefined, (error: unknown) => error);
          expect(outcome).to.be.instanceOf(PhantomError).and.deep.include({ code: 'task_identity_changed' });
        }
        expect(await a.get('t1')).to.deep.include({ id: 't1', owner: 'alice' });
        expect(await a.list('mallory', undefined, 10)).to.deep.equal({ tasks: [] });
      });
    });
  });

  describe('#list', () => {
    context('when the owner has more tasks than one read of Redis takes', () => {
      it('pages them all, in creation order', async () => {
        const a = storeOn(nodeA);
        const now = Date.now();
        const ids = Array.from({ length: 230 }, (_, i) => `t${i}`);
        for (const id of ids) await a.create(taskRecord(id, now), 1_000);
        const seen: string[] = [];
        let cursor: string | undefined;
        let pages = 0;
        do {
          const page = (await a.list('alice', cursor, 150))!;
          seen.push(...page.tasks.map((task) => task.id));
          cursor = page.nextCursor;
          pages += 1;
        } while (cursor !== undefined && pages < 10);
        expect(pages).to.equal(2);
        expect(seen).to.deep.equal(ids);
      });
    });
  });

  describe('keys in Redis', () => {
    context('when a task\'s ttl passes on Redis\'s own clock', () => {
      it('Redis drops it, and what indexed it goes with it', async () => {
        const a = storeOn(nodeA);
        const now = Date.now();
        await a.create(taskRecord('t1', now, { ttlMs: 300, runner: 'a', leaseUntil: now + 100 }), 10);
        await a.create(taskRecord('t2', now, { ttlMs: 300 }), 10);
        const done = (await a.update('t2', (current) => ({ ...current, status: 'completed', outcome: { result: { content: [] } } })))!;
        await a.keepFinished(done, 10, { count: 10, bytes: 1_000 });
        expect(await keysUnderPrefix()).to.include.members([`${prefix}{tasks}:finished:alice`, `${prefix}{tasks}:sizes:alice`]);
        await eventually('Redis drops every key of the tasks', async () => (await keysUnderPrefix()).length === 0);
      });
    });

    context('when Redis dropped a task that its indexes still named', () => {
      it('leaves it out of list and abandoned, and prunes it from them', async () => {
        const a = storeOn(nodeA);
        const now = Date.now();
        await a.create(taskRecord('t1', now, { runner: 'a', leaseUntil: now - 1 }), 10);
        await a.create(taskRecord('t2', now, { runner: 'a', leaseUntil: now - 1 }), 10);
        await nodeA.commands.del(taskKey('t1'));
        expect((await a.list('alice', undefined, 10))!.tasks.map((task) => task.id)).to.deep.equal(['t2']);
        expect((await a.abandoned(now)).map((task) => task.id)).to.deep.equal(['t2']);
        expect(await nodeA.commands.zrange(`${prefix}{tasks}:owner:alice`, 0, -1)).to.deep.equal(['t2']);
        expect(await nodeA.commands.zrange(`${prefix}{tasks}:leases`, 0, -1)).to.deep.equal(['t2']);
      });
    });
  });

  describe('#abandoned', () => {
    context('when more tasks are abandoned than maxAbandonedPerCall', () => {
      it('gives that many a call, the rest once those are failed', async () => {
        const a = storeOn(nodeA, { maxAbandonedPerCall: 2 });
        const now = Date.now();
        for (const id of ['t1', 't2', 't3']) await a.create(taskRecord(id, now, { runner: 'a', leaseUntil: now - 1 }), 10);
        const first = await a.abandoned(now);
        expect(first).to.have.length(2);
        for (const task of first) await a.update(task.id, (current) => ({ ...current, status: 'failed' }));
        expect((await a.abandoned(now)).map((task) => task.id)).to.deep.equal(['t3']);
      });
    });
  });

  context('when Redis goes away and comes back', () => {
    it('rejects every call with a clear error meanwhile, and works again once Redis is back', async () => {
      const redis = await ownRedis();
      const node = new RedisConnections({ url: redis.url });
      try {
        await node.open();
        const store = storeOn(node);
        const now = Date.now();
        await store.create(taskRecord('t1', now), 10);
        await redis.stop();
        const calls: Array<() => Promise<unknown>> = [
          () => store.create(taskRecord('t2', now), 10), () => store.get('t1'), () => store.update('t1', answer('k')),
          () => store.list('alice', undefined, 10), () => store.list('alice', 't1', 10), () => store.abandoned(now),
        ];
        for (const call of calls) {
          const outcome = await call().then(() => undefined, (error: unknown) => error);
          expect(outcome).to.be.instanceOf(PhantomError).and.deep.include({ code: 'redis_unavailable' });
        }
        await redis.start();
        await eventually('the store works again', async () => store.create(taskRecord('t3', Date.now()), 10));
        expect(await store.update('t3', answer('k'))).to.deep.include({ inputResponses: { k: { ok: 'k' } } });
        expect((await store.list('alice', undefined, 10))!.tasks.map((task) => task.id)).to.deep.equal(['t3']);
      } finally {
        await node.close();
        await redis.stop();
      }
    });
  });
});
