import 'reflect-metadata';
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ListenOptions, PhantomServer, PhantomServerOptions } from '../../../lib';
import type { HttpListener } from '../../../lib/entries/http';
import { eventually } from '../../support/eventually';
import { connectHttp } from '../support/sdk-clients';
import { codeOf, lastOf, startTask, steer, taskServer } from './support/session-task-tools.fixture';

describe('tasks of 2025-11-25: whose they are, and how many (official SDK client)', () => {
  let server: PhantomServer | undefined;
  let listener: HttpListener | undefined;
  const clients: Client[] = [];

  async function serve(options: Partial<PhantomServerOptions> = {}, listen: ListenOptions = {}): Promise<string> {
    const served = taskServer(options);
    server = served;
    listener = await served.listen({ port: 0, ...listen });
    return listener.url;
  }

  async function connect(url: string, headers: Record<string, string> = {}): Promise<Client> {
    const { client } = await connectHttp(url, {}, headers);
    clients.push(client);
    return client;
  }

  /** What `client` can learn of the task `taskId`: the codes its task methods answer, and whether its list shows it. */
  async function reachOf(client: Client, taskId: string) {
    const tasks = client.experimental.tasks;
    const listed = (await tasks.listTasks()).tasks.map((task) => task.taskId);
    return {
      get: await codeOf(tasks.getTask(taskId)),
      result: await codeOf(tasks.getTaskResult(taskId, CallToolResultSchema)),
      cancel: await codeOf(tasks.cancelTask(taskId)),
      listed: listed.includes(taskId),
    };
  }

  const UNKNOWN = { get: -32602, result: -32602, cancel: -32602, listed: false };

  beforeEach(() => steer.reset());

  afterEach(async () => {
    steer.gate.open();
    await Promise.all(clients.splice(0).map((client) => client.close()));
    await listener?.close();
    await server?.close();
    listener = undefined;
    server = undefined;
  });

  context('without authentication', () => {
    it('keeps a task of one session unknown to another session, which cannot cancel it', async () => {
      const url = await serve();
      const owner = await connect(url);
      const other = await connect(url);
      const { task } = await startTask(owner, 'slow');
      await steer.gate.entered;
      expect(await reachOf(other, task.taskId)).to.deep.equal(UNKNOWN);
      expect((await owner.experimental.tasks.getTask(task.taskId)).status).to.equal('working');
      expect((await owner.experimental.tasks.listTasks()).tasks.map((t) => t.taskId)).to.deep.equal([task.taskId]);
    });
  });

  context('with an authenticate hook giving principals', () => {
    const authenticate: ListenOptions['authenticate'] = ({ headers }) => ({ allow: true, principal: { sub: String(headers['x-user']) } });

    it('keeps a task of principal A unknown to principal B', async () => {
      const url = await serve({}, { authenticate });
      const ada = await connect(url, { 'x-user': 'ada' });
      const eve = await connect(url, { 'x-user': 'eve' });
      const { task } = await startTask(ada, 'slow');
      await steer.gate.entered;
      expect(await reachOf(eve, task.taskId)).to.deep.equal(UNKNOWN);
      expect((await ada.experimental.tasks.getTask(task.taskId)).status).to.equal('working');
    });

    it('shows a task of principal A to A in a new session', async () => {
      const url = await serve({}, { authenticate });
      const first = await connect(url, { 'x-user': 'ada' });
      const { task, stream } = await startTask(first, 'quick');
      await lastOf(stream);
      await first.close();
      const again = await connect(url, { 'x-user': 'ada' });
      expect((await again.experimental.tasks.getTask(task.taskId)).status).to.equal('completed');
      expect((await again.experimental.tasks.listTasks()).tasks.map((t) => t.taskId)).to.deep.equal([task.taskId]);
      expect((await again.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema)).content).to.deep.equal([{ type: 'text', text: 'quick' }]);
    });
  });

  context('when a caller has tasks.maxActivePerOwner tasks running', () => {
    it('refuses another with -32010, and takes one again once a task ended', async () => {
      const url = await serve({ tasks: { maxActivePerOwner: 2 } });
      const client = await connect(url);
      const first = await startTask(client, 'slow');
      await startTask(client, 'slow');
      const refused = await lastOf(client.experimental.tasks.callToolStream({ name: 'slow', arguments: {} }, CallToolResultSchema, { task: {} }));
      expect(refused.type).to.equal('error');
      expect((refused.error as { code: number }).code).to.equal(-32010);
      await client.experimental.tasks.cancelTask(first.task.taskId);
      // The handler of a cancelled task counts until it returns (this one ignores its signal until the gate opens).
      steer.gate.open();
      await steer.gate.entered;
      await eventually('the handlers return', () => steer.returned === 2);
      expect((await startTask(client, 'slow')).task.status).to.equal('working');
    });

    it('counts per caller: another session may still start tasks', async () => {
      const url = await serve({ tasks: { maxActivePerOwner: 2 } });
      const client = await connect(url);
      await startTask(client, 'slow');
      await startTask(client, 'slow');
      const other = await connect(url);
      expect((await startTask(other, 'slow')).task.status).to.equal('working');
    });
  });
});
