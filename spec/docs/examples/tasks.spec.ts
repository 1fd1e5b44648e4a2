import 'reflect-metadata';
import { expect } from 'chai';
import { z } from 'zod';
import { CallToolResultSchema, CreateTaskResultSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { connect, textOf } from 'phantom-mcp/testing';
import type { PhantomServer } from 'phantom-mcp';
import { createServer } from '../../../docs/examples/tasks';
import { eventually } from '../../support/eventually';

const ANY_RESULT = z.object({}).passthrough();
const TASKS = 'io.modelcontextprotocol/tasks';

/** What the tasks guide (docs/guide/tasks.md) claims, run against docs/examples/tasks.ts. */
describe('docs/examples/tasks.ts (the tasks guide)', () => {
  let server: PhantomServer;
  beforeEach(() => {
    server = createServer();
  });
  afterEach(async () => {
    await server.close();
  });

  describe('2025-11-25 (session era)', () => {
    it('lists each tool with its execution.taskSupport', async () => {
      const client = await connect(server);
      const { tools } = await client.listTools();
      expect(Object.fromEntries(tools.map((tool) => [tool.name, tool.execution?.taskSupport]))).to.deep.equal({ exportProject: 'optional', deleteProject: 'required' });
      await client.close();
    });

    it('answers with a task at once; progress, the question and the result come through it', async () => {
      const asked: string[] = [];
      const client = await connect(server, { elicit: (params) => (asked.push(params.message), { action: 'accept', content: { publish: true } }) });
      const progress: number[] = [];
      const seen: string[] = [];
      let result: any;
      const stream = client.experimental.tasks.callToolStream(
        { name: 'exportProject', arguments: { project: 'atlas', stepMs: 0 } },
        CallToolResultSchema,
        { task: { ttl: 60_000 }, onprogress: (p) => void progress.push(p.progress) },
      );
      for await (const message of stream) {
        seen.push(message.type);
        if (message.type === 'result') result = message.result;
        if (message.type === 'error') throw message.error;
      }
      await client.close();
      expect(seen[0]).to.equal('taskCreated');
      expect(asked).to.deep.equal(['The archive is ready. Publish it?']);
      expect(progress).to.deep.equal([0, 1, 2]);
      expect(result.structuredContent).to.include({ project: 'atlas', published: true });
      expect(result.structuredContent.task).to.be.a('string');
    });

    it('tasks/cancel stops a running task: it shows cancelled', async () => {
      const client = await connect(server);
      const created = await client.request(
        { method: 'tools/call', params: { name: 'exportProject', arguments: { project: 'atlas', stepMs: 60_000 }, task: { ttl: 60_000 } } },
        CreateTaskResultSchema,
      );
      await client.experimental.tasks.cancelTask(created.task.taskId);
      expect((await client.experimental.tasks.getTask(created.task.taskId)).status).to.equal('cancelled');
      await client.close();
    });

    it('refuses a required tool called without a task: -32601', async () => {
      const client = await connect(server);
      const error = await client.callTool({ name: 'deleteProject', arguments: { project: 'atlas' } }).then(() => undefined, (e: unknown) => e);
      expect(error).to.be.instanceOf(McpError);
      expect((error as McpError).code).to.equal(-32601);
      await client.close();
    });
  });

  describe('2026-07-28 (the tasks extension)', () => {
    const declaring = { elicitation: {}, extensions: { [TASKS]: {} } };

    it('answers with a task; tasks/get shows its question, tasks/update answers it, tasks/get shows the result', async () => {
      const client = await connect(server, { era: 'stateless', capabilities: declaring as never });
      const request = (method: string, params: Record<string, unknown>) => client.request({ method, params } as never, ANY_RESULT) as Promise<any>;
      const created = await request('tools/call', { name: 'exportProject', arguments: { project: 'atlas', stepMs: 0 } });
      expect(created).to.include({ resultType: 'task', status: 'working' });
      const { taskId } = created;

      let task: any;
      await eventually('the task asks its question', async () => (task = await request('tasks/get', { taskId })).status === 'input_required');
      const [[key, question]] = Object.entries(task.inputRequests) as [string, any][];
      expect(question.method).to.equal('elicitation/create');
      expect(question.params.message).to.equal('The archive is ready. Publish it?');

      await request('tasks/update', { taskId, inputResponses: { [key]: { action: 'accept', content: { publish: false } } } });
      await eventually('the task completes', async () => (task = await request('tasks/get', { taskId })).status === 'completed');
      expect(task.result.structuredContent).to.include({ project: 'atlas', published: false, task: taskId });
      await client.close();
    });

    it('taskStart explicit: asks in the request, and becomes a task only once the handler says so', async () => {
      const keep = await connect(server, { era: 'stateless', capabilities: declaring as never, elicit: { action: 'accept', content: { confirm: false } } });
      const kept = await keep.request({ method: 'tools/call', params: { name: 'deleteProject', arguments: { project: 'atlas', stepMs: 0 } } } as never, ANY_RESULT) as any;
      expect(textOf(kept)).to.equal('Kept atlas.');
      await keep.close();

      const remove = await connect(server, { era: 'stateless', capabilities: declaring as never, elicit: { action: 'accept', content: { confirm: true } } });
      const request = (method: string, params: Record<string, unknown>) => remove.request({ method, params } as never, ANY_RESULT) as Promise<any>;
      const created = await request('tools/call', { name: 'deleteProject', arguments: { project: 'atlas', stepMs: 0 } });
      expect(created.resultType).to.equal('task');
      let task: any;
      await eventually('the task completes', async () => (task = await request('tasks/get', { taskId: created.taskId })).status === 'completed');
      expect(textOf(task.result)).to.equal('Deleted atlas.');
      await remove.close();
    });

    it('refuses tasks/get to a request that does not declare the extension: -32021', async () => {
      const client = await connect(server, { era: 'stateless' });
      const error = await client.request({ method: 'tasks/get', params: { taskId: 'x' } } as never, ANY_RESULT).then(() => undefined, (e: unknown) => e);
      expect((error as McpError).code).to.equal(-32021);
      await client.close();
    });
  });
});
