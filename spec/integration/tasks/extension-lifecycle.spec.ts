import 'reflect-metadata';
import { expect } from 'chai';
import { Context, PhantomServer, ProtocolError, SILENT_DIAGNOSTICS, Tool, ToolResult } from '../../../lib';
import type { HttpListener } from '../../../lib/entries/http';
import { InMemoryTaskStore, type TaskChange, type TaskRecord } from '../../../lib/entries/seams';
import { eventually } from '../../support/eventually';
import { Gate } from '../../support/gate';
import { callTool, getTask, taskIdOf, taskReaching, taskRequest } from './support/extension-client';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const RELATED_TASK = 'io.modelcontextprotocol/related-task';

/** The gate the `held` tool's next call waits at. */
let held = new Gate();
/** Calls of `held` whose handler has returned. */
let returned = 0;

/** An in-memory store that tells which changes were tried after the last handler returned, and on what. */
class WatchedStore extends InMemoryTaskStore {
  readonly triedAfterReturn: Array<{ id: string; on: TaskRecord['status']; changed: boolean }> = [];
  override update(id: string, change: TaskChange): Promise<TaskRecord | undefined> {
    const seen = returned;
    return super.update(id, (current) => {
      const next = change(current);
      if (seen > 0) this.triedAfterReturn.push({ id, on: current.status, changed: next !== undefined });
      return next;
    });
  }
}

class LifecycleTools {
  @Tool({ description: 'Waits until the spec lets it go, or its task is cancelled', task: 'optional' })
  async held(_args: object, ctx: Context) {
    const gate = held;
    await gate.pass(ctx.signal);
    returned += 1;
    return 'let go';
  }

  @Tool({ description: 'Reports an error result', task: 'required' })
  erring() {
    return ToolResult.error('The job failed');
  }

  @Tool({ description: 'Throws a protocol error', task: 'required' })
  broken() {
    throw new ProtocolError(-32603, 'The job broke down');
  }
}

/** The keys an empty ack may carry (resultType, and the server's `_meta`), and none of a task's. */
function expectEmptyAck(result: Record<string, unknown>): void {
  expect(result.resultType).to.equal('complete');
  expect(Object.keys(result).filter((key) => key !== '_meta')).to.deep.equal(['resultType']);
}

describe('the tasks extension (2026-07-28): a task from creation to its end', () => {
  let server: PhantomServer;
  let listener: HttpListener;
  let url: string;
  const store = new WatchedStore();

  before(async () => {
    server = new PhantomServer({ name: 'lifecycle', version: '1', providers: [LifecycleTools], diagnostics: SILENT_DIAGNOSTICS, taskStore: store });
    listener = await server.listen({ port: 0 });
    url = listener.url;
  });

  after(async () => {
    held.open();
    await listener.close();
    await server.close();
  });

  beforeEach(() => {
    held.open();
    held = new Gate();
  });

  describe('tools/call', () => {
    it('answers a flat CreateTaskResult: the Task fields and resultType "task", nothing else', async () => {
      const reply = await callTool(url, 'held');
      const result = reply.body.result;
      expect(reply.status).to.equal(200);
      expect(Object.keys(result).sort()).to.deep.equal(['_meta', 'createdAt', 'lastUpdatedAt', 'pollIntervalMs', 'resultType', 'status', 'taskId', 'ttlMs']);
      expect(result).to.deep.include({ resultType: 'task', status: 'working', ttlMs: 3_600_000, pollIntervalMs: 1000 });
      expect(result.createdAt).to.match(ISO);
      expect(result.lastUpdatedAt).to.match(ISO);
      expect(result.taskId).to.match(/^[0-9a-f]{32}$/);
    });

    it('answers only once tasks/get finds the task', async () => {
      const taskId = taskIdOf(await callTool(url, 'held'));
      const found = await getTask(url, taskId);
      expect(found).to.deep.include({ resultType: 'complete', taskId, status: 'working' });
      expect(found).not.to.have.any.keys('result', 'error', 'inputRequests', 'requestState', 'ttl', 'pollInterval');
    });

    context('when the server sets tasks.defaultTtlMs and tasks.pollIntervalMs', () => {
      it('gives every task those (the extension has no ttl for the client to ask)', async () => {
        const tuned = new PhantomServer({ name: 'tuned', version: '1', providers: [LifecycleTools], diagnostics: SILENT_DIAGNOSTICS, tasks: { defaultTtlMs: 120_000, pollIntervalMs: 250 } });
        const tunedListener = await tuned.listen({ port: 0 });
        try {
          const reply = await callTool(tunedListener.url, 'held', {}, undefined, { task: { ttl: 5 } });
          expect(reply.body.result).to.deep.include({ ttlMs: 120_000, pollIntervalMs: 250 });
        } finally {
          held.open();
          await tunedListener.close();
          await tuned.close();
        }
      });
    });
  });

  describe('tasks/get', () => {
    context('when the tool returned', () => {
      it('is completed, with the call result inlined and no related-task _meta', async () => {
        const taskId = taskIdOf(await callTool(url, 'held'));
        held.open();
        const done = await taskReaching(url, taskId, ['completed', 'failed', 'cancelled']);
        expect(done).to.deep.include({ status: 'completed', taskId });
        expect(done.result.content).to.deep.equal([{ type: 'text', text: 'let go' }]);
        expect(done.result._meta ?? {}).not.to.have.property(RELATED_TASK);
        expect(done).not.to.have.any.keys('error', 'inputRequests');
      });
    });

    context('when the tool returned an error result', () => {
      it('is completed too (failed is for protocol errors), the result saying isError', async () => {
        const taskId = taskIdOf(await callTool(url, 'erring'));
        const done = await taskReaching(url, taskId, ['completed', 'failed', 'cancelled']);
        expect(done.status).to.equal('completed');
        expect(done.result).to.deep.include({ isError: true, content: [{ type: 'text', text: 'The job failed' }] });
      });
    });

    context('when the tool threw a protocol error', () => {
      it('is failed, with the error the call would have answered and no result', async () => {
        const taskId = taskIdOf(await callTool(url, 'broken'));
        const done = await taskReaching(url, taskId, ['completed', 'failed', 'cancelled']);
        expect(done.status).to.equal('failed');
        expect(done.error).to.deep.include({ code: -32603, message: 'The job broke down' });
        expect(done.statusMessage).to.equal('The job broke down');
        expect(done).not.to.have.any.keys('result', 'inputRequests');
      });
    });
  });

  describe('tasks/cancel', () => {
    context('when the task is running', () => {
      it('acks with an empty result, aborts the handler\'s signal, and the task stays cancelled after the handler returns', async () => {
        const gate = held;
        const taskId = taskIdOf(await callTool(url, 'held'));
        await gate.entered;
        const ack = await taskRequest(url, 'tasks/cancel', { taskId });
        expect(ack.status).to.equal(200);
        expectEmptyAck(ack.body.result);
        await gate.aborted;
        expect((await getTask(url, taskId)).status).to.equal('cancelled');
        returned = 0;
        store.triedAfterReturn.length = 0;
        gate.open();
        // The handler's outcome reaches the store in the background: once it has, the task is still cancelled.
        const tried = () => store.triedAfterReturn.filter((attempt) => attempt.id === taskId);
        await eventually('the late outcome offered to the store', () => tried().length > 0);
        expect(tried()).to.deep.equal([{ id: taskId, on: 'cancelled', changed: false }]);
        const after = await getTask(url, taskId);
        expect(after.status).to.equal('cancelled');
        expect(after).not.to.have.any.keys('result', 'error');
      });
    });

    context('when the task is terminal already', () => {
      it('acks the same way and leaves its status, however often it is asked', async () => {
        const taskId = taskIdOf(await callTool(url, 'held'));
        held.open();
        const done = await taskReaching(url, taskId, ['completed']);
        for (let times = 0; times < 2; times += 1) {
          const ack = await taskRequest(url, 'tasks/cancel', { taskId });
          expectEmptyAck(ack.body.result);
        }
        expect(await getTask(url, taskId)).to.deep.equal(done);
      });

      it('acks a second cancel of a cancelled task without changing it', async () => {
        const taskId = taskIdOf(await callTool(url, 'held'));
        expectEmptyAck((await taskRequest(url, 'tasks/cancel', { taskId })).body.result);
        const cancelled = await getTask(url, taskId);
        expectEmptyAck((await taskRequest(url, 'tasks/cancel', { taskId })).body.result);
        expect(await getTask(url, taskId)).to.deep.equal(cancelled);
      });
    });
  });
});
