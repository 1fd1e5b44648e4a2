import 'reflect-metadata';
import { expect } from 'chai';
import { IsInt } from 'class-validator';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { DEFAULT_TASK_LIMITS } from '../../../lib/protocol/tasks/task-options';
import { Tool, type PhantomServer, type PhantomServerOptions } from '../../../lib';
import type { HttpListener } from '../../../lib/entries/http';
import { eventually } from '../../support/eventually';
import { connectHttp } from '../support/sdk-clients';
import { codeOf, startTask, steer, TaskTools, taskServer } from './support/session-task-tools.fixture';

class Size {
  @IsInt() bytes!: number;
}

/** A tool whose result is as large as the caller says. */
class SizedTools {
  @Tool({ description: 'Answers with `bytes` characters', task: 'optional' })
  sized({ bytes }: Size) {
    return 'x'.repeat(bytes);
  }
}

describe('tasks of 2025-11-25: what a caller may hold (official SDK client)', () => {
  let server: PhantomServer | undefined;
  let listener: HttpListener | undefined;
  const clients: Client[] = [];

  async function serve(tasks: PhantomServerOptions['tasks']): Promise<string> {
    server = taskServer({ providers: [TaskTools, SizedTools], tasks });
    listener = await server.listen({ port: 0 });
    return listener.url;
  }

  async function connect(url: string): Promise<Client> {
    const { client } = await connectHttp(url);
    clients.push(client);
    return client;
  }

  /** The first answer to calling `name` as a task: its task, or the error that refused it. */
  async function attempt(client: Client, name: string, task: { ttl?: number } = {}, args: object = {}) {
    const stream = client.experimental.tasks.callToolStream({ name, arguments: args as Record<string, unknown> }, CallToolResultSchema, { task });
    const first = await stream.next();
    void (async () => { for await (const _ of stream); })().catch(() => undefined);
    return first.value as { type: string; task?: { taskId: string; ttl: number }; error?: { code: number; message: string } };
  }

  /** Whether the task is gone (its record expired): tasks/get says it is unknown. */
  const gone = (client: Client, taskId: string) => async () => (await codeOf(client.experimental.tasks.getTask(taskId))) === -32602;

  beforeEach(() => steer.reset());

  afterEach(async () => {
    steer.gate.open();
    await Promise.all(clients.splice(0).map((client) => client.close()));
    await listener?.close();
    await server?.close();
    listener = undefined;
    server = undefined;
  });

  describe('a task\'s ttl', () => {
    context('when the client asks for one below tasks.minTtlMs', () => {
      it('grants minTtlMs and shows it in the task', async () => {
        const client = await connect(await serve({}));
        const { task } = await startTask(client, 'slow', { ttl: 1 });
        expect(task.ttl).to.equal(DEFAULT_TASK_LIMITS.minTtlMs);
        expect((await client.experimental.tasks.getTask(task.taskId)).ttl).to.equal(DEFAULT_TASK_LIMITS.minTtlMs);
      });
    });
  });

  describe('tasks.maxActivePerOwner', () => {
    context('when the records of running tasks expired before their handlers ended', () => {
      it('still counts the handlers, and refuses another task with -32010', async () => {
        const client = await connect(await serve({ maxActivePerOwner: 2, minTtlMs: 1 }));
        const started = [await startTask(client, 'slow', { ttl: 1 }), await startTask(client, 'slow', { ttl: 1 })];
        for (const { task } of started) await eventually('the record expires', gone(client, task.taskId));
        const refused = await attempt(client, 'slow', { ttl: 1 });
        expect(refused.type).to.equal('error');
        expect(refused.error).to.include({ code: -32010 });
        expect(refused.error!.message).to.match(/at most 2 running/);
        steer.gate.open();
        await eventually('the handlers end and free their places', async () => (await attempt(client, 'quick')).type === 'taskCreated');
      });
    });
  });

  describe('tasks.maxRunningPerNode', () => {
    context('when anonymous sessions together run as many tasks as the node allows', () => {
      it('refuses another task, from any session, with -32010 naming the limit', async () => {
        const url = await serve({ maxRunningPerNode: 3 });
        const sessions = [await connect(url), await connect(url), await connect(url)];
        for (const client of sessions) await startTask(client, 'slow');
        const refused = await attempt(await connect(url), 'slow');
        expect(refused.error).to.include({ code: -32010 });
        expect(refused.error!.message).to.match(/this server runs at most 3/);
        steer.gate.open();
        await eventually('a place frees up', async () => (await attempt(sessions[0], 'quick')).type === 'taskCreated');
      });
    });
  });

  describe('tasks/result', () => {
    context('when the task expires while the request waits for it', () => {
      it('answers -32602 saying the task expired', async () => {
        const client = await connect(await serve({ minTtlMs: 1 }));
        const { task } = await startTask(client, 'slow', { ttl: 300 });
        const waited = await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema).then(() => undefined, (error: unknown) => error);
        expect(waited).to.deep.include({ code: -32602 });
        expect((waited as Error).message).to.match(/expired before it ended/);
      });
    });
  });

  describe('finished tasks of one caller', () => {
    /** Runs `sized` as a task to its end; its task id. */
    async function completed(client: Client, bytes: number): Promise<string> {
      const created = await attempt(client, 'sized', {}, { bytes });
      const id = created.task!.taskId;
      await eventually('the task completes', async () => (await client.experimental.tasks.getTask(id)).status === 'completed');
      return id;
    }

    context('when more finish than tasks.maxFinishedPerOwner', () => {
      it('drops the oldest results: tasks/result says why, tasks/get still shows the task', async () => {
        const client = await connect(await serve({ maxFinishedPerOwner: 2 }));
        const ids = [await completed(client, 10), await completed(client, 20), await completed(client, 30)];
        const oldest = await client.experimental.tasks.getTaskResult(ids[0], CallToolResultSchema).then(() => undefined, (error: unknown) => error);
        expect(oldest).to.deep.include({ code: -32603 });
        expect((oldest as Error).message).to.match(/no longer kept.*at most 2 results/);
        expect(await client.experimental.tasks.getTask(ids[0])).to.include({ status: 'completed' });
        for (const [i, bytes] of [[1, 20], [2, 30]]) {
          const kept = await client.experimental.tasks.getTaskResult(ids[i], CallToolResultSchema);
          expect(kept.content).to.deep.equal([{ type: 'text', text: 'x'.repeat(bytes) }]);
        }
      });
    });

    context('when their results take more than tasks.maxFinishedBytesPerOwner', () => {
      it('drops the oldest results until the rest fit', async () => {
        const client = await connect(await serve({ maxFinishedBytesPerOwner: 25_000 }));
        const ids = [await completed(client, 10_000), await completed(client, 10_000), await completed(client, 10_000)];
        expect(await codeOf(client.experimental.tasks.getTaskResult(ids[0], CallToolResultSchema))).to.equal(-32603);
        for (const id of ids.slice(1)) expect((await client.experimental.tasks.getTaskResult(id, CallToolResultSchema)).content).to.have.length(1);
      });
    });

    context('when another caller\'s tasks finish', () => {
      it('does not count them', async () => {
        const url = await serve({ maxFinishedPerOwner: 1 });
        const ada = await connect(url);
        const grace = await connect(url);
        const adas = await completed(ada, 10);
        await completed(grace, 10);
        expect((await ada.experimental.tasks.getTaskResult(adas, CallToolResultSchema)).content).to.have.length(1);
      });
    });
  });
});
