import { expect } from 'chai';
import type { FinishedBound, TaskChange, TaskRecord, TaskStatus, TaskStore } from '../../../lib/entries/seams';

/** What the contract sets in each store it builds. */
export interface TaskStoreSettings {
  /** The store's clock: the contract moves it forward instead of sleeping. It starts at the real time (a shared backend's own expiry runs on that). */
  readonly now: () => number;
}

/** The stores of one fresh backend: `store`, and `peer`, another node's store on the same backend. */
export interface TaskStoreNodes {
  readonly store: TaskStore;
  /** A store on separate connections to the same backend; a store kept in one process may give `store` again. */
  readonly peer: TaskStore;
}

export interface TaskStoreHarness {
  /** A fresh, empty backend (a shared one gets a fresh namespace) and its stores, on the given settings. */
  open(settings: TaskStoreSettings): TaskStoreNodes | Promise<TaskStoreNodes>;
}

const TTL_MS = 60_000;
const OWNER = 'alice';

/** A task as the task service creates it, working, created at `now`. */
export function taskRecord(id: string, now: number, fields: Partial<TaskRecord> = {}): TaskRecord {
  return {
    id, owner: OWNER, era: 'session', sessionId: 'session-1', tool: 'build', status: 'working',
    createdAt: now, lastUpdatedAt: now, ttlMs: TTL_MS, pollIntervalMs: 1_000, ...fields,
  };
}

const become = (status: TaskStatus): TaskChange => (current) => ({ ...current, status });
const answer = (key: string): TaskChange => (current) => ({ ...current, inputResponses: { ...current.inputResponses, [key]: { ok: key } } });

/**
 * The behaviour every `TaskStore` owes the task service, run against `harness`: call it inside a
 * `describe` of the store. The in-memory store runs it; a store on a shared backend (Redis) runs
 * the same, so that a task created on one node is polled, updated and cancelled on any other.
 */
export function behavesAsTaskStore(harness: TaskStoreHarness): void {
  let time: number;
  let store: TaskStore;
  let peer: TaskStore;

  const elapse = (ms: number) => { time += ms; };
  const idsOf = (tasks: readonly TaskRecord[]) => tasks.map((task) => task.id);

  beforeEach(async () => {
    time = Date.now();
    ({ store, peer } = await harness.open({ now: () => time }));
  });

  afterEach(async () => {
    await Promise.all([...new Set([store, peer])].map((each) => each.close()));
  });

  describe('#create', () => {
    context('when the owner has room', () => {
      it('stores the task: get gives it back, on every node', async () => {
        const task = taskRecord('t1', time, { leaseUntil: time + 5_000, runner: 'node-a' });
        expect(await store.create(task, 10)).to.equal(true);
        expect(await store.get('t1')).to.deep.equal(taskRecord('t1', time, { leaseUntil: time + 5_000, runner: 'node-a' }));
        expect(await peer.get('t1')).to.deep.equal(task);
      });
    });

    context('when the owner already has maxActive tasks that are not terminal', () => {
      it('refuses (false) and stores nothing', async () => {
        expect(await store.create(taskRecord('t1', time), 2)).to.equal(true);
        expect(await store.create(taskRecord('t2', time, { status: 'input_required' }), 2)).to.equal(true);
        expect(await peer.create(taskRecord('t3', time), 2)).to.equal(false);
        expect(await store.get('t3')).to.equal(undefined);
        expect(idsOf((await store.list(OWNER, undefined, 10))!.tasks)).to.deep.equal(['t1', 't2']);
      });
    });

    context('when some of the owner\'s tasks are terminal', () => {
      it('does not count them', async () => {
        await store.create(taskRecord('t1', time), 2);
        await store.create(taskRecord('t2', time), 2);
        await store.update('t1', become('completed'));
        expect(await peer.create(taskRecord('t3', time), 2)).to.equal(true);
        await store.update('t2', become('cancelled'));
        await store.update('t3', become('failed'));
        expect(await store.create(taskRecord('t4', time), 2)).to.equal(true);
        expect(await store.create(taskRecord('t5', time), 2)).to.equal(true);
        expect(await store.create(taskRecord('t6', time), 2)).to.equal(false);
      });
    });

    context('when another owner has tasks running', () => {
      it('does not count them', async () => {
        await store.create(taskRecord('t1', time, { owner: 'bob' }), 1);
        expect(await store.create(taskRecord('t2', time), 1)).to.equal(true);
        expect(await store.create(taskRecord('t3', time, { owner: 'bob' }), 1)).to.equal(false);
      });
    });

    context('when the owner\'s running tasks are past their ttl', () => {
      it('does not count them', async () => {
        await store.create(taskRecord('t1', time, { ttlMs: 1_000 }), 1);
        elapse(1_000);
        expect(await store.create(taskRecord('t2', time), 1)).to.equal(true);
      });
    });
  });

  describe('#get', () => {
    context('when no task has the id', () => {
      it('gives undefined', async () => {
        expect(await store.get('nobody')).to.equal(undefined);
      });
    });

    context('when the task\'s ttl has passed since it was created, whatever its status', () => {
      it('gives undefined', async () => {
        await store.create(taskRecord('t1', time, { ttlMs: 1_000 }), 10);
        await store.create(taskRecord('t2', time, { ttlMs: 1_000 }), 10);
        await store.update('t2', become('completed'));
        elapse(999);
        expect(await peer.get('t1')).to.deep.include({ id: 't1' });
        elapse(1);
        expect(await store.get('t1')).to.equal(undefined);
        expect(await peer.get('t2')).to.equal(undefined);
      });
    });
  });

  describe('#update', () => {
    beforeEach(async () => {
      await store.create(taskRecord('t1', time), 10);
    });

    context('when the change gives a new record', () => {
      it('stores it and gives it back, on every node', async () => {
        const next = await store.update('t1', (current) => ({ ...current, status: 'input_required', statusMessage: 'Confirm?', lastUpdatedAt: time + 1 }));
        expect(next).to.deep.equal(taskRecord('t1', time, { status: 'input_required', statusMessage: 'Confirm?', lastUpdatedAt: time + 1 }));
        expect(await peer.get('t1')).to.deep.equal(next);
      });
    });

    context('when the change gives undefined (no change)', () => {
      it('leaves the task as it was and gives back the current record', async () => {
        await peer.update('t1', become('input_required'));
        expect(await store.update('t1', () => undefined)).to.deep.equal(taskRecord('t1', time, { status: 'input_required' }));
        expect(await store.get('t1')).to.deep.equal(taskRecord('t1', time, { status: 'input_required' }));
      });
    });

    context('when no task has the id', () => {
      it('gives undefined without running the change, and creates nothing', async () => {
        let ran = false;
        expect(await store.update('nobody', (current) => { ran = true; return current; })).to.equal(undefined);
        expect(ran).to.equal(false);
        expect(await store.get('nobody')).to.equal(undefined);
      });
    });

    context('when the task\'s ttl has passed', () => {
      it('gives undefined and does not bring it back', async () => {
        elapse(TTL_MS);
        expect(await store.update('t1', become('completed'))).to.equal(undefined);
        expect(await store.get('t1')).to.equal(undefined);
      });
    });

    context('when the change throws', () => {
      it('refuses with that error and leaves the task as it was', async () => {
        const refusal = new Error('no');
        const outcome = await store.update('t1', () => { throw refusal; }).then(() => 'applied', (error: unknown) => error);
        expect(outcome).to.equal(refusal);
        expect(await store.get('t1')).to.deep.equal(taskRecord('t1', time));
      });
    });

    context('when two nodes change the task at once, many times (the runner and a client\'s answers)', () => {
      it('keeps every change', async () => {
        const keys = Array.from({ length: 20 }, (_, i) => `k${i}`);
        await Promise.all(keys.map((key, i) => (i % 2 === 0 ? store : peer).update('t1', answer(key))));
        expect(Object.keys((await store.get('t1'))!.inputResponses ?? {})).to.have.members(keys);
      });
    });
  });

  describe('#list', () => {
    beforeEach(async () => {
      for (const id of ['t1', 't2', 't3', 't4', 't5']) await store.create(taskRecord(id, time), 10);
      await store.create(taskRecord('b1', time, { owner: 'bob' }), 10);
    });

    context('when the owner has more tasks than a page', () => {
      it('pages them in creation order, with no nextCursor on the last page', async () => {
        const first = (await store.list(OWNER, undefined, 2))!;
        expect(idsOf(first.tasks)).to.deep.equal(['t1', 't2']);
        const second = (await peer.list(OWNER, first.nextCursor, 2))!;
        expect(idsOf(second.tasks)).to.deep.equal(['t3', 't4']);
        const last = (await store.list(OWNER, second.nextCursor, 2))!;
        expect(last).to.deep.equal({ tasks: [taskRecord('t5', time)] });
      });
    });

    context('when the page is exactly as long as what is left', () => {
      it('gives no nextCursor', async () => {
        expect((await store.list(OWNER, undefined, 5))!.nextCursor).to.equal(undefined);
        expect((await store.list(OWNER, undefined, 4))!.nextCursor).to.equal('t4');
      });
    });

    context('when tasks of other owners exist', () => {
      it('never gives them', async () => {
        expect(idsOf((await store.list(OWNER, undefined, 100))!.tasks)).to.deep.equal(['t1', 't2', 't3', 't4', 't5']);
        expect(await store.list('bob', undefined, 100)).to.deep.equal({ tasks: [taskRecord('b1', time, { owner: 'bob' })] });
        expect(await store.list('carol', undefined, 100)).to.deep.equal({ tasks: [] });
      });
    });

    context('when some of the owner\'s tasks are past their ttl', () => {
      it('leaves them out', async () => {
        elapse(500);
        await store.create(taskRecord('t6', time), 10);
        elapse(TTL_MS - 500);
        expect(await store.list(OWNER, undefined, 100)).to.deep.equal({ tasks: [taskRecord('t6', time - TTL_MS + 500)] });
      });
    });

    context('when the cursor is not one the store gave', () => {
      it('gives undefined', async () => {
        expect(await store.list(OWNER, 'forged', 2)).to.equal(undefined);
      });
    });

    context('when the cursor is another owner\'s task id', () => {
      it('gives undefined', async () => {
        expect(await store.list(OWNER, 'b1', 2)).to.equal(undefined);
        expect(await store.list('bob', 't1', 2)).to.equal(undefined);
      });
    });
  });

  describe('#keepFinished', () => {
    /** Stores `id` finished with an outcome (as the task service does), then counts it. */
    async function finish(id: string, bytes: number, bound: FinishedBound, fields: Partial<TaskRecord> = {}, on: TaskStore = store) {
      await on.create(taskRecord(id, time, fields), 100);
      const done = (await on.update(id, (current) => ({ ...current, status: 'completed', outcome: { result: { content: [] } } })))!;
      return on.keepFinished(done, bytes, bound);
    }

    context('when the owner\'s finished tasks stay within the bound', () => {
      it('drops none', async () => {
        const bound = { count: 2, bytes: 100 };
        expect(await finish('t1', 50, bound)).to.deep.equal([]);
        expect(await finish('t2', 50, bound, {}, peer)).to.deep.equal([]);
      });
    });

    context('when one more finishes than bound.count', () => {
      it('gives the oldest finished, on any node, once', async () => {
        const bound = { count: 2, bytes: 1_000 };
        await finish('t1', 1, bound);
        await finish('t2', 1, bound, {}, peer);
        expect(await finish('t3', 1, bound)).to.deep.equal(['t1']);
        expect(await finish('t4', 1, bound, {}, peer)).to.deep.equal(['t2']);
      });
    });

    context('when their bytes pass bound.bytes', () => {
      it('gives the oldest until the rest fit, the new one too when it alone is over', async () => {
        const bound = { count: 10, bytes: 100 };
        await finish('t1', 40, bound);
        await finish('t2', 40, bound);
        expect(await finish('t3', 70, bound, {}, peer)).to.deep.equal(['t1', 't2']);
        expect(await finish('t4', 101, bound)).to.deep.equal(['t3', 't4']);
      });
    });

    context('when other owners\' tasks finished', () => {
      it('does not count them', async () => {
        const bound = { count: 1, bytes: 100 };
        await finish('b1', 100, bound, { owner: 'bob' });
        expect(await finish('t1', 100, bound)).to.deep.equal([]);
      });
    });

    context('when finished tasks are past their ttl', () => {
      it('no longer counts them', async () => {
        const bound = { count: 1, bytes: 100 };
        await finish('t1', 100, bound, { ttlMs: 1_000 });
        elapse(1_000);
        expect(await finish('t2', 100, bound, {}, peer)).to.deep.equal([]);
      });
    });
  });

  describe('#abandoned', () => {
    context('when tasks hold leases ending at different times', () => {
      it('gives exactly the tasks not terminal whose lease ended before now', async () => {
        await store.create(taskRecord('ended', time, { runner: 'a', leaseUntil: time - 1 }), 10);
        await store.create(taskRecord('asking', time, { status: 'input_required', runner: 'a', leaseUntil: time - 1 }), 10);
        await store.create(taskRecord('ends-now', time, { runner: 'a', leaseUntil: time }), 10);
        await store.create(taskRecord('holds', time, { runner: 'b', leaseUntil: time + 1_000 }), 10);
        await store.create(taskRecord('no-lease', time), 10);
        await store.create(taskRecord('done', time, { runner: 'a', leaseUntil: time - 1 }), 10);
        await store.update('done', become('completed'));
        await store.create(taskRecord('other-owner', time, { owner: 'bob', runner: 'a', leaseUntil: time - 1 }), 10);
        expect(idsOf(await peer.abandoned(time))).to.have.members(['ended', 'asking', 'other-owner']);
      });
    });

    context('when a lease was renewed, or the task ended', () => {
      it('leaves it out', async () => {
        await store.create(taskRecord('renewed', time, { runner: 'a', leaseUntil: time + 100 }), 10);
        await store.create(taskRecord('cancelled', time, { runner: 'a', leaseUntil: time + 100 }), 10);
        await store.create(taskRecord('lapsed', time, { runner: 'a', leaseUntil: time + 100 }), 10);
        await peer.update('renewed', (current) => ({ ...current, leaseUntil: time + 10_000 }));
        await peer.update('cancelled', become('cancelled'));
        elapse(1_000);
        expect(idsOf(await store.abandoned(time))).to.deep.equal(['lapsed']);
      });
    });

    context('when an abandoned task is past its ttl', () => {
      it('leaves it out', async () => {
        await store.create(taskRecord('t1', time, { ttlMs: 1_000, runner: 'a', leaseUntil: time + 100 }), 10);
        elapse(1_000);
        expect(await store.abandoned(time)).to.deep.equal([]);
      });
    });
  });
}
