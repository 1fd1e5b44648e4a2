import 'reflect-metadata';
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { DISCONNECTED_CHANNEL } from '../../../lib/context/client-channel';
import { Cancellation } from '../../../lib/core/cancellation';
import { SILENT_DIAGNOSTICS } from '../../../lib/core/diagnostics';
import { PhantomError } from '../../../lib/core/errors';
import type { Outcome } from '../../../lib/router/router';
import { InProcessSessionBus } from '../../../lib/protocol/seams/session-bus';
import { InMemoryTaskStore, type TaskRecord } from '../../../lib/protocol/seams/task-store';
import { taskLimits, type TaskOptions } from '../../../lib/protocol/tasks/task-options';
import { TaskService, type TaskCall } from '../../../lib/protocol/tasks/task-service';
import { eventually } from '../../support/eventually';

/** Two nodes' task services on one store and one bus: what replicas on Redis are, in one process. */
function nodes(options: TaskOptions = {}, clock: () => number = Date.now) {
  const store = new InMemoryTaskStore(clock);
  const bus = new InProcessSessionBus();
  const make = () => new TaskService({ store, bus, diagnostics: SILENT_DIAGNOSTICS, limits: taskLimits(options), clock });
  const services = [make(), make()];
  return { store, a: services[0], b: services[1], close: () => Promise.all(services.map((service) => service.close())) };
}

const CALL: TaskCall = { owner: 'principal:ada', era: 'stateless', tool: 'build', channel: () => DISCONNECTED_CHANNEL };

/** Starts a task on `service` whose call ends when `end` is called. */
async function started(service: TaskService, call: Partial<TaskCall> = {}) {
  const pending = service.begin({ ...CALL, ...call });
  const side = await pending.starter.start();
  let end!: (outcome: Outcome) => void;
  pending.finish(new Promise<Outcome>((resolve) => (end = resolve)));
  return { id: side.taskId, side, task: pending.running!, end };
}

describe('TaskService', () => {
  let cluster: ReturnType<typeof nodes>;

  afterEach(async () => {
    await cluster?.close();
  });

  describe('#begin', () => {
    context('when the call starts its task', () => {
      it('stores it working, run by this node, with an unguessable id, and resolves started with it', async () => {
        cluster = nodes();
        const pending = cluster.a.begin(CALL);
        expect(pending.running).to.equal(undefined);
        const side = await pending.starter.start();
        const task = await pending.started;
        expect(task).to.include({ id: side.taskId, status: 'working', owner: 'principal:ada', runner: cluster.a.node });
        expect(task.id).to.match(/^[0-9a-f]{32}$/);
        expect(await cluster.b.get(task.id, 'principal:ada')).to.include({ status: 'working' });
      });

      it('keeps the requested ttl within minTtlMs and maxTtlMs, and gives defaultTtlMs when none was asked', async () => {
        cluster = nodes({ defaultTtlMs: 5_000, maxTtlMs: 10_000, minTtlMs: 1_000 });
        expect((await started(cluster.a, { ttlMs: 60_000 })).task.ttlMs).to.equal(10_000);
        expect((await started(cluster.a, { ttlMs: 2_000 })).task.ttlMs).to.equal(2_000);
        expect((await started(cluster.a, { ttlMs: 1 })).task.ttlMs).to.equal(1_000);
        expect((await started(cluster.a)).task.ttlMs).to.equal(5_000);
        expect((await started(cluster.a, { ttlMs: -1 })).task.ttlMs).to.equal(5_000);
      });

      it('refuses a task beyond maxActivePerOwner with -32010, and counts only running ones of that owner', async () => {
        cluster = nodes({ maxActivePerOwner: 1 });
        const first = await started(cluster.a);
        const refused = await cluster.a.begin(CALL).starter.start().then(() => undefined, (error: unknown) => error);
        expect(refused).to.deep.include({ code: -32010 });
        await started(cluster.a, { owner: 'principal:grace' });
        first.end({ result: { content: [] } });
        await eventually('the first ends', async () => (await cluster.a.get(first.id, CALL.owner))?.status === 'completed');
        await started(cluster.a);
      });
    });

    context('when the records of the owner\'s running tasks expired (a short ttl)', () => {
      it('still counts their handlers until they end', async () => {
        let now = Date.now();
        cluster = nodes({ maxActivePerOwner: 2, minTtlMs: 1 }, () => now);
        const first = await started(cluster.a, { ttlMs: 1 });
        await started(cluster.a, { ttlMs: 1 });
        now += 10;
        expect(await cluster.a.peek(first.id), 'the record is gone').to.equal(undefined);
        const refused = await cluster.a.begin({ ...CALL, ttlMs: 1 }).starter.start().then(() => undefined, (error: unknown) => error);
        expect(refused).to.deep.include({ code: -32010 });
        first.end({ result: { content: [] } });
        await eventually('its handler ended', async () => (await cluster.a.begin(CALL).starter.start().then(() => true, () => false)));
      });
    });

    context('when the node runs maxRunningPerNode handlers, of any owners', () => {
      it('refuses another with -32010 naming the limit, and takes one again once a handler ended', async () => {
        cluster = nodes({ maxRunningPerNode: 2 });
        const first = await started(cluster.a, { owner: 'session:1' });
        await started(cluster.a, { owner: 'session:2' });
        const refused = await cluster.a.begin({ ...CALL, owner: 'session:3' }).starter.start().then(() => undefined, (error: unknown) => error);
        expect(refused).to.deep.include({ code: -32010, message: 'Too many tasks: this server runs at most 2 at once; retry once one has ended' });
        expect(await started(cluster.b, { owner: 'session:3' }), 'another node has its own count').to.have.property('id');
        first.end({ result: { content: [] } });
        await eventually('a place frees up', async () => (await cluster.a.begin({ ...CALL, owner: 'session:3' }).starter.start().then(() => true, () => false)));
      });
    });
  });

  describe('#finish', () => {
    it('stores a result as completed, and an error as failed with the error', async () => {
      cluster = nodes();
      const done = await started(cluster.a);
      done.end({ result: { content: [{ type: 'text', text: 'built' }] } });
      const broken = await started(cluster.a);
      broken.end({ error: { code: -32603, message: 'broke' } });
      await eventually('both end', async () => (await cluster.a.get(broken.id, CALL.owner))?.status === 'failed' && (await cluster.a.get(done.id, CALL.owner))?.status === 'completed');
      expect((await cluster.b.get(done.id, CALL.owner))!.outcome).to.deep.equal({ result: { content: [{ type: 'text', text: 'built' }] } });
      expect(await cluster.b.get(broken.id, CALL.owner)).to.deep.include({ outcome: { error: { code: -32603, message: 'broke' } }, statusMessage: 'broke' });
    });

    it('fails a session-era task whose tool returned an error result, and completes a stateless one', async () => {
      cluster = nodes();
      const session = await started(cluster.a, { era: 'session', sessionId: 's1' });
      const stateless = await started(cluster.a);
      for (const { end } of [session, stateless]) end({ result: { content: [], isError: true } });
      await eventually('both end', async () => (await cluster.a.peek(session.id))?.status === 'failed' && (await cluster.a.peek(stateless.id))?.status === 'completed');
    });
  });

  describe('#cancel', () => {
    it('cancels the task before it resolves, aborts its handler on the node running it, and the late result changes nothing', async () => {
      cluster = nodes();
      const { id, side, end } = await started(cluster.a);
      const cancelled = await cluster.b.cancel(id, CALL.owner);
      expect(cancelled).to.deep.include({ wasTerminal: false });
      expect(cancelled!.task.status).to.equal('cancelled');
      await eventually('the handler is aborted', () => side.cancellation.aborted);
      end({ result: { content: [] } });
      await new Promise((resolve) => setImmediate(resolve));
      expect((await cluster.a.peek(id))!.status).to.equal('cancelled');
      expect((await cluster.a.peek(id))!.outcome).to.equal(undefined);
    });

    it('leaves a terminal task as it is, and says it was terminal', async () => {
      cluster = nodes();
      const { id, end } = await started(cluster.a);
      end({ result: { content: [] } });
      await eventually('it completes', async () => (await cluster.a.peek(id))?.status === 'completed');
      const again = await cluster.b.cancel(id, CALL.owner);
      expect(again).to.deep.include({ wasTerminal: true });
      expect(again!.task.status).to.equal('completed');
    });

    it('knows no task of another owner', async () => {
      cluster = nodes();
      const { id } = await started(cluster.a);
      expect(await cluster.b.cancel(id, 'principal:mallory')).to.equal(undefined);
      expect(await cluster.b.get(id, 'principal:mallory')).to.equal(undefined);
      expect(await cluster.b.answer(id, 'principal:mallory', {}, () => undefined)).to.equal(undefined);
      expect((await cluster.a.peek(id))!.status).to.equal('working');
    });
  });

  describe('#ask and #answer', () => {
    it('makes the task input_required with a key never used before, and resolves with the answer sent to another node', async () => {
      cluster = nodes();
      const { id } = await started(cluster.a);
      const signal = new AbortController().signal;
      const first = cluster.a.ask(id, 'elicitation/create', { message: 'one?' }, { signal });
      const second = cluster.a.ask(id, 'elicitation/create', { message: 'two?' }, { signal });
      let waiting: TaskRecord | undefined;
      await eventually('both are asked', async () => Object.keys((waiting = await cluster.b.get(id, CALL.owner))?.inputRequests ?? {}).length === 2);
      expect(waiting!.status).to.equal('input_required');
      const [k1, k2] = Object.keys(waiting!.inputRequests!);
      expect(k1).not.to.equal(k2);
      const partly = await cluster.b.answer(id, CALL.owner, { [k1]: { action: 'accept', content: { n: 1 } }, unknown: { ignored: true } }, () => undefined);
      expect(partly!.status).to.equal('input_required');
      expect(Object.keys(partly!.inputRequests!)).to.deep.equal([k2]);
      expect(await first).to.deep.equal({ action: 'accept', content: { n: 1 } });
      await cluster.b.answer(id, CALL.owner, { [k2]: { action: 'decline' }, [k1]: { action: 'accept', content: { n: 'again' } } }, () => undefined);
      expect(await second).to.deep.equal({ action: 'decline' });
      const after = await cluster.a.peek(id);
      expect(after).to.include({ status: 'working' });
      expect(after!.inputResponses).to.equal(undefined);
      const third = cluster.a.ask(id, 'elicitation/create', { message: 'three?' }, { signal });
      await eventually('asked again', async () => (await cluster.a.peek(id))?.status === 'input_required');
      const keys = Object.keys((await cluster.a.peek(id))!.inputRequests!);
      expect(keys).to.have.length(1);
      expect([k1, k2]).not.to.include(keys[0]);
      await cluster.a.answer(id, CALL.owner, { [keys[0]]: { action: 'cancel' } }, () => undefined);
      expect(await third).to.deep.equal({ action: 'cancel' });
    });

    it('numbers a key the handler names, so that asking twice under one name gives two keys', async () => {
      cluster = nodes();
      const { id } = await started(cluster.a);
      const signal = new AbortController().signal;
      void cluster.a.ask(id, 'elicitation/create', {}, { key: 'confirm', signal }).catch(() => undefined);
      void cluster.a.ask(id, 'elicitation/create', {}, { key: 'confirm', signal }).catch(() => undefined);
      await eventually('both are asked', async () => Object.keys((await cluster.a.peek(id))?.inputRequests ?? {}).length === 2);
      expect(Object.keys((await cluster.a.peek(id))!.inputRequests!).sort()).to.deep.equal(['confirm-1', 'confirm-2']);
    });

    it('refuses a malformed answer to an outstanding request with -32602, and keeps waiting', async () => {
      cluster = nodes();
      const { id } = await started(cluster.a);
      void cluster.a.ask(id, 'elicitation/create', { message: 'one?' }, { signal: new AbortController().signal }).catch(() => undefined);
      await eventually('asked', async () => (await cluster.a.peek(id))?.status === 'input_required');
      const [key] = Object.keys((await cluster.a.peek(id))!.inputRequests!);
      const refused = await cluster.b.answer(id, CALL.owner, { [key]: 'yes' }, () => 'it must be an object').then(() => undefined, (error: unknown) => error);
      expect(refused).to.deep.include({ code: -32602 });
      expect((await cluster.a.peek(id))!.inputRequests).to.have.property(key);
    });

    it('gives up with request_timeout after timeoutMs, and when the task is cancelled', async () => {
      cluster = nodes();
      const { id } = await started(cluster.a);
      const timedOut = await cluster.a.ask(id, 'sampling/createMessage', {}, { signal: new AbortController().signal, timeoutMs: 10 }).then(() => undefined, (error: unknown) => error);
      expect(timedOut).to.be.instanceOf(PhantomError).and.include({ code: 'request_timeout' });
      const waiting = cluster.a.ask(id, 'sampling/createMessage', {}, { signal: new AbortController().signal }).then(() => undefined, (error: unknown) => error);
      await eventually('asked', async () => (await cluster.a.peek(id))?.status === 'input_required');
      await cluster.b.cancel(id, CALL.owner);
      expect(await waiting).to.be.instanceOf(PhantomError).and.include({ code: 'task_ended' });
    });

    it('gives up with task_ended when the task expires while it waits (expiry announces nothing)', async () => {
      cluster = nodes({ minTtlMs: 1 });
      const { id } = await started(cluster.a, { ttlMs: 200 });
      const waiting = await cluster.a.ask(id, 'elicitation/create', {}, { signal: new AbortController().signal }).then(() => undefined, (error: unknown) => error);
      expect(waiting).to.be.instanceOf(PhantomError).and.include({ code: 'task_ended' });
    });
  });

  describe('#whenEnded', () => {
    it('resolves once the task is terminal, wherever it ends', async () => {
      cluster = nodes();
      const { id, end } = await started(cluster.a);
      const ended = cluster.b.whenEnded(id, CALL.owner, new Cancellation());
      end({ result: { content: [] } });
      expect((await ended)!.status).to.equal('completed');
    });

    it('resolves undefined once the task expired, on every node waiting', async () => {
      cluster = nodes({ minTtlMs: 1 });
      const { id } = await started(cluster.a, { ttlMs: 200 });
      const waits = [cluster.a, cluster.b].map((node) => node.whenEnded(id, CALL.owner, new Cancellation()));
      expect(await Promise.all(waits)).to.deep.equal([undefined, undefined]);
    });
  });

  describe('finished tasks of one owner', () => {
    const ended = (outcome: Outcome) => async (node: TaskService, owner = CALL.owner) => {
      const task = await started(node, { owner });
      task.end(outcome);
      await eventually('it ends', async () => (await node.peek(task.id))?.outcome !== undefined || (await node.peek(task.id))?.dropped !== undefined);
      return task.id;
    };

    context('when more hold outcomes than maxFinishedPerOwner', () => {
      it('drops the oldest outcomes, keeps the tasks, and says why in dropped and statusMessage', async () => {
        cluster = nodes({ maxFinishedPerOwner: 2 });
        const done = ended({ result: { content: [] } });
        const ids = [await done(cluster.a), await done(cluster.b), await done(cluster.a), await done(cluster.a, 'principal:grace')];
        await eventually('the oldest is dropped', async () => (await cluster.a.peek(ids[0]))?.dropped !== undefined);
        const oldest = (await cluster.b.peek(ids[0]))!;
        expect(oldest).to.include({ status: 'completed' });
        expect(oldest.outcome).to.equal(undefined);
        expect(oldest.statusMessage).to.equal(oldest.dropped).and.match(/at most 2 results/);
        for (const id of ids.slice(1)) expect((await cluster.a.peek(id))!.outcome, id).to.deep.equal({ result: { content: [] } });
      });
    });

    context('when 40 outcomes of 1 MB each finish under maxFinishedBytesPerOwner of 4 MiB', () => {
      it('holds about 4 MB of them after a forced GC, not 40', async () => {
        setFlagsFromString('--expose-gc');
        const gc = runInNewContext('gc') as () => void;
        cluster = nodes({ maxFinishedBytesPerOwner: 4 * 1024 * 1024 });
        gc();
        const before = process.memoryUsage().heapUsed;
        // Random hex: flat strings of their own (a repeated or padded string is a rope sharing its parts).
        for (let i = 0; i < 40; i += 1) await ended({ result: { content: [{ type: 'text', text: randomBytes(500_000).toString('hex') }] } })(cluster.a);
        const keptNow = async () => (await cluster.store.list(CALL.owner, undefined, 100))!.tasks.filter((task) => task.outcome).length;
        // The last drops follow the last outcome; without a bound they never come, and the heap says so below.
        await eventually('the oldest are dropped', async () => (await keptNow()) <= 4, 1_000).catch(() => undefined);
        const kept = await keptNow();
        gc();
        gc();
        const grown = process.memoryUsage().heapUsed - before;
        expect(grown, `${grown} bytes more on the heap, ${kept} outcomes kept`).to.be.below(16 * 1024 * 1024);
        expect(kept).to.equal(4);
      });
    });
  });

  describe('when the node running a task stops', () => {
    it('fails the task on another node once its lease has lapsed', async () => {
      cluster = nodes({ leaseMs: 60 });
      const { task } = await started(cluster.a);
      // A node that died: its task, with a lease nobody renews.
      const orphan: TaskRecord = { ...task, id: 'f'.repeat(32), runner: 'a-dead-node', leaseUntil: Date.now() + 60 };
      await cluster.store.create(orphan, 10);
      await eventually('the task fails', async () => (await cluster.b.peek(orphan.id))?.status === 'failed');
      expect((await cluster.b.peek(orphan.id))!.outcome).to.deep.include({ error: { code: -32603, message: 'The server running this task stopped before the task ended' } });
      expect((await cluster.b.peek(task.id))!.status, 'a task whose node renews its lease').to.equal('working');
    });

    it('fails the tasks of a node that shuts down, and aborts their handlers', async () => {
      cluster = nodes();
      const { id, side } = await started(cluster.a);
      await cluster.a.close();
      expect(side.cancellation.aborted).to.equal(true);
      expect((await cluster.b.peek(id))!.outcome).to.deep.include({ error: { code: -32603, message: 'The server shut down before the task ended' } });
    });

    it('leaves a task alone while its node renews the lease', async () => {
      cluster = nodes({ leaseMs: 60 });
      const { id } = await started(cluster.a);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect((await cluster.b.peek(id))!.status).to.equal('working');
    });
  });
});
