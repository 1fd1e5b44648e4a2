import 'reflect-metadata';
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CallToolResultSchema, ElicitRequestSchema, TaskStatusNotificationSchema, type Task,
} from '@modelcontextprotocol/sdk/types.js';
import type { PhantomServer, PhantomServerOptions } from '../../../lib';
import type { HttpListener } from '../../../lib/entries/http';
import { eventually } from '../../support/eventually';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { connectHttp, connectHttpListening, connectInMemory, newClient, type ClientCapabilities } from '../../integration/support/sdk-clients';
import { post } from '../../integration/support/raw-http';
import { PlainTools, codeOf, lastOf, startTask, steer, taskServer } from '../../integration/tasks/support/session-task-tools.fixture';

const RELATED_TASK = 'io.modelcontextprotocol/related-task';

describe('tasks of 2025-11-25 (official SDK client)', () => {
  let server: PhantomServer | undefined;
  let listener: HttpListener | undefined;
  const clients: Client[] = [];

  async function serve(options: Partial<PhantomServerOptions> = {}): Promise<string> {
    const served = taskServer(options);
    server = served;
    listener = await served.listen({ port: 0 });
    return listener.url;
  }

  async function connect(url: string, capabilities: ClientCapabilities = {}): Promise<Client> {
    const { client } = await connectHttp(url, capabilities);
    clients.push(client);
    return client;
  }

  async function connectListening(url: string, capabilities: ClientCapabilities = {}): Promise<Client> {
    const { client } = await connectHttpListening(url, capabilities);
    clients.push(client);
    return client;
  }

  beforeEach(() => steer.reset());

  afterEach(async () => {
    steer.gate.open();
    await Promise.all(clients.splice(0).map((client) => client.close()));
    await listener?.close();
    await server?.close();
    listener = undefined;
    server = undefined;
  });

  describe('initialize', () => {
    context('when a tool may run as a task', () => {
      it('declares tasks: list, cancel and tools/call requests', async () => {
        const client = await connect(await serve());
        expect(client.getServerCapabilities()?.tasks).to.deep.equal({ list: {}, cancel: {}, requests: { tools: { call: {} } } });
      });
    });

    context('when no tool may run as a task', () => {
      it('declares no tasks', async () => {
        const client = await connect(await serve({ providers: [PlainTools] }));
        expect(client.getServerCapabilities()).not.to.have.property('tasks');
      });
    });
  });

  describe('tools/list', () => {
    it('shows each tool\'s execution.taskSupport', async () => {
      const client = await connect(await serve());
      const { tools } = await client.listTools();
      const support = Object.fromEntries(tools.map((tool) => [tool.name, tool.execution?.taskSupport]));
      expect(support).to.include({ slow: 'optional', quick: 'required', measure: 'optional' });
      expect(support.plain ?? 'forbidden').to.equal('forbidden');
    });
  });

  describe('tools/call with params.task', () => {
    context('when the tool runs long', () => {
      it('answers with the task at once, working, while its handler goes on', async () => {
        const client = await connect(await serve({ tasks: { maxTtlMs: 60_000 } }));
        const { task } = await startTask(client, 'slow', { ttl: 5_000 });
        await steer.gate.entered;
        expect(task.status).to.equal('working');
        expect(task.taskId).to.be.a('string').with.length.of.at.least(32);
        expect(task.ttl).to.equal(5_000);
        expect(task.pollInterval).to.equal(10);
        expect(Date.parse(task.createdAt)).to.be.a('number').and.not.NaN;
        expect(task.lastUpdatedAt).to.equal(task.createdAt);
        expect(steer.returned).to.equal(0);
        expect((await client.experimental.tasks.getTask(task.taskId)).status).to.equal('working');
      });
    });

    context('when the client asks for a ttl longer than tasks.maxTtlMs', () => {
      it('keeps the task tasks.maxTtlMs and says so', async () => {
        const client = await connect(await serve({ tasks: { maxTtlMs: 60_000 } }));
        expect((await startTask(client, 'quick', { ttl: 10 * 60_000 })).task.ttl).to.equal(60_000);
      });
    });

    context('when the client asks for no ttl', () => {
      it('keeps the task tasks.defaultTtlMs', async () => {
        const client = await connect(await serve({ tasks: { defaultTtlMs: 30_000 } }));
        expect((await startTask(client, 'quick')).task.ttl).to.equal(30_000);
      });

      it('keeps it an hour when the server sets no default', async () => {
        const client = await connect(await serve());
        expect((await startTask(client, 'quick')).task.ttl).to.equal(60 * 60 * 1000);
      });
    });

    context('when the tool requires a task and the call has none', () => {
      it('answers -32601', async () => {
        const client = await connect(await serve());
        expect(await codeOf(client.request({ method: 'tools/call', params: { name: 'quick', arguments: {} } }, CallToolResultSchema))).to.equal(-32601);
      });
    });

    context('when the tool has no task support and the call has a task', () => {
      it('answers -32601', async () => {
        const client = await connect(await serve());
        const last = await lastOf(client.experimental.tasks.callToolStream({ name: 'plain', arguments: {} }, CallToolResultSchema, { task: {} }));
        expect(last.type).to.equal('error');
        expect((last.error as { code: number }).code).to.equal(-32601);
      });
    });

    context('when the tool allows a task and the call has none', () => {
      it('answers the call itself', async () => {
        const client = await connect(await serve());
        const result = await client.callTool({ name: 'measure', arguments: {} });
        expect(result.structuredContent).to.deep.equal({ total: 3 });
        expect(result).not.to.have.property('task');
      });
    });
  });

  describe('tasks/result', () => {
    context('when the task completes', () => {
      it('waits for it, then answers the call\'s result (content and structuredContent) tagged with the task', async () => {
        const client = await connect(await serve());
        const plain = await client.callTool({ name: 'measure', arguments: {} });
        const { task, stream } = await startTask(client, 'measure');
        const last = await lastOf(stream);
        expect(last.type).to.equal('result');
        const result = await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
        expect(result._meta).to.deep.equal({ [RELATED_TASK]: { taskId: task.taskId } });
        const { _meta, ...rest } = result;
        expect(rest).to.deep.equal(plain);
        expect((await client.experimental.tasks.getTask(task.taskId)).status).to.equal('completed');
      });

      it('blocks while the task works and answers once it ends', async () => {
        const client = await connect(await serve());
        const { task } = await startTask(client, 'slow');
        let answered = false;
        const result = client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema).finally(() => (answered = true));
        await steer.gate.entered;
        await client.ping();
        expect(answered).to.equal(false);
        steer.gate.open();
        expect((await result).content).to.deep.equal([{ type: 'text', text: 'slow done' }]);
      });
    });

    context('when the tool returns an error result (isError)', () => {
      it('fails the task and answers that very result', async () => {
        const client = await connect(await serve());
        const plain = await client.callTool({ name: 'refuse', arguments: {} });
        expect(plain.isError).to.equal(true);
        const { task, stream } = await startTask(client, 'refuse');
        // SDK 1.32 does not fetch the result of a failed task: its stream ends with an error.
        expect((await lastOf(stream)).type).to.equal('error');
        const gotten = await client.experimental.tasks.getTask(task.taskId);
        expect(gotten.status).to.equal('failed');
        expect(gotten.statusMessage).to.be.a('string');
        const { _meta, ...rest } = await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
        expect(_meta).to.deep.equal({ [RELATED_TASK]: { taskId: task.taskId } });
        expect(rest).to.deep.equal(plain);
      });
    });

    context('when the call ends with a JSON-RPC error', () => {
      it('fails the task and answers the same error', async () => {
        const client = await connect(await serve());
        const plain = await client.callTool({ name: 'reject', arguments: {} }).then(() => undefined, (error: unknown) => error as { code: number; message: string; data: unknown });
        expect(plain?.code).to.equal(-32602);
        const { task, stream } = await startTask(client, 'reject');
        await lastOf(stream);
        expect((await client.experimental.tasks.getTask(task.taskId)).status).to.equal('failed');
        const error = await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema).then(() => undefined, (e: unknown) => e as { code: number; message: string; data: unknown });
        expect(error).to.include({ code: plain!.code, message: plain!.message });
        expect(error!.data).to.deep.equal(plain!.data);
      });
    });
  });

  describe('tasks/get', () => {
    context('when the task id is unknown', () => {
      it('answers -32602 in tasks/get, tasks/result and tasks/cancel', async () => {
        const client = await connect(await serve());
        const tasks = client.experimental.tasks;
        expect(await codeOf(tasks.getTask('0'.repeat(32)))).to.equal(-32602);
        expect(await codeOf(tasks.getTaskResult('0'.repeat(32), CallToolResultSchema))).to.equal(-32602);
        expect(await codeOf(tasks.cancelTask('0'.repeat(32)))).to.equal(-32602);
      });
    });
  });

  describe('tasks/list', () => {
    context('when the session has more tasks than a page (tasks.pageSize)', () => {
      it('pages them with nextCursor, the last page without one', async () => {
        const client = await connect(await serve({ tasks: { pageSize: 2 } }));
        const made = new Set<string>();
        for (let i = 0; i < 5; i += 1) made.add((await startTask(client, 'quick')).task.taskId);
        const pages: Task[][] = [];
        let cursor: string | undefined;
        do {
          const page = await client.experimental.tasks.listTasks(cursor);
          pages.push(page.tasks);
          cursor = page.nextCursor;
        } while (cursor !== undefined && pages.length < 10);
        expect(pages.map((page) => page.length)).to.deep.equal([2, 2, 1]);
        expect(new Set(pages.flat().map((task) => task.taskId))).to.deep.equal(made);
      });
    });

    context('when the cursor is not one the server gave', () => {
      it('answers -32602', async () => {
        const client = await connect(await serve({ tasks: { pageSize: 2 } }));
        expect(await codeOf(client.experimental.tasks.listTasks('not-a-cursor'))).to.equal(-32602);
      });
    });
  });

  describe('tasks/cancel', () => {
    context('when the task works', () => {
      it('answers the task cancelled, aborts the handler\'s signal, and the task stays cancelled once the handler returns', async () => {
        const client = await connect(await serve());
        const { task } = await startTask(client, 'slow');
        await steer.gate.entered;
        const cancelled = await client.experimental.tasks.cancelTask(task.taskId);
        expect(cancelled.status).to.equal('cancelled');
        expect((await client.experimental.tasks.getTask(task.taskId)).status).to.equal('cancelled');
        await steer.gate.aborted;
        steer.gate.open();
        await eventually('the handler returned', () => steer.returned === 1);
        await client.ping();
        expect((await client.experimental.tasks.getTask(task.taskId)).status).to.equal('cancelled');
        expect(await codeOf(client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema))).to.equal(-32603);
      });
    });

    context('when the task is terminal', () => {
      it('answers -32602 and the task keeps its status', async () => {
        const client = await connect(await serve());
        const { task, stream } = await startTask(client, 'quick');
        await lastOf(stream);
        expect(await codeOf(client.experimental.tasks.cancelTask(task.taskId))).to.equal(-32602);
        expect((await client.experimental.tasks.getTask(task.taskId)).status).to.equal('completed');
      });

      it('answers -32602 for a task cancelled already', async () => {
        const client = await connect(await serve());
        const { task } = await startTask(client, 'slow');
        await client.experimental.tasks.cancelTask(task.taskId);
        expect(await codeOf(client.experimental.tasks.cancelTask(task.taskId))).to.equal(-32602);
      });
    });
  });

  describe('input_required', () => {
    context('when the task\'s handler elicits', () => {
      it('makes the task input_required, asks the client tagged with the task, and works on once answered', async () => {
        const client = await connect(await serve(), { elicitation: { form: {} } });
        const asked: Array<{ related: unknown; status: string }> = [];
        client.setRequestHandler(ElicitRequestSchema, async (request) => {
          const related = request.params._meta?.[RELATED_TASK] as { taskId: string } | undefined;
          asked.push({ related, status: related ? (await client.experimental.tasks.getTask(related.taskId)).status : 'none' });
          return { action: 'accept', content: { name: 'Ada' } };
        });
        const { task, stream } = await startTask(client, 'interview');
        const last = lastOf(stream);
        await steer.gate.entered;
        expect(asked).to.deep.equal([{ related: { taskId: task.taskId }, status: 'input_required' }]);
        expect((await client.experimental.tasks.getTask(task.taskId)).status).to.equal('working');
        steer.gate.open();
        const ended = await last;
        expect(ended.type).to.equal('result');
        expect((ended.result as { content: unknown }).content).to.deep.equal([{ type: 'text', text: 'hello Ada' }]);
        expect((await client.experimental.tasks.getTask(task.taskId)).status).to.equal('completed');
      });
    });

    context('when the client has no GET stream (it only polls, then waits on tasks/result)', () => {
      it('asks the client on its tasks/result stream, and the answer resumes the task', async () => {
        const noGet = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => (init?.method ?? 'GET') === 'GET'
          ? new Response(null, { status: 405 })
          : fetch(input, init);
        const transport = new StreamableHTTPClientTransport(new URL(await serve()), { fetch: noGet });
        const client = newClient({ elicitation: { form: {} } });
        await client.connect(transport);
        clients.push(client);
        const related: unknown[] = [];
        client.setRequestHandler(ElicitRequestSchema, async (request) => {
          related.push(request.params._meta?.[RELATED_TASK]);
          return { action: 'accept', content: { name: 'Edsger' } };
        });
        const { task, stream } = await startTask(client, 'interview', {}, { timeout: 5_000 });
        const last = lastOf(stream);
        await steer.gate.entered;
        expect(related).to.deep.equal([{ taskId: task.taskId }]);
        steer.gate.open();
        expect(((await last).result as { content: unknown }).content).to.deep.equal([{ type: 'text', text: 'hello Edsger' }]);
      });
    });

    context('when nothing waits on tasks/result (the GET stream carries the request)', () => {
      it('asks the client there, and the answer resumes the task', async () => {
        const client = await connectListening(await serve(), { elicitation: { form: {} } });
        const related: unknown[] = [];
        client.setRequestHandler(ElicitRequestSchema, async (request) => {
          related.push(request.params._meta?.[RELATED_TASK]);
          return { action: 'accept', content: { name: 'Grace' } };
        });
        const { task } = await startTask(client, 'interview');
        await steer.gate.entered;
        expect(related).to.deep.equal([{ taskId: task.taskId }]);
        steer.gate.open();
        const result = await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
        expect(result.content).to.deep.equal([{ type: 'text', text: 'hello Grace' }]);
      });
    });
  });

  describe('progress', () => {
    context('when the handler reports progress after the task was created', () => {
      it('reaches the client\'s progress handler of the call', async () => {
        const client = await connectListening(await serve());
        const seen: Array<{ progress: number; total?: number; message?: string }> = [];
        const { task, stream } = await startTask(client, 'report', {}, { onprogress: (progress: { progress: number; total?: number; message?: string }) => seen.push(progress) });
        steer.gate.open();
        expect((await lastOf(stream)).type).to.equal('result');
        await eventually('the progress arrived', () => seen.length > 0);
        expect(seen).to.deep.equal([{ progress: 1, total: 2, message: 'half way', _meta: { [RELATED_TASK]: { taskId: task.taskId } } }]);
      });
    });
  });

  describe('notifications/tasks/status', () => {
    context('when the client registers a handler', () => {
      it('tells it the task\'s changes, up to completed', async () => {
        const client = await connectListening(await serve());
        const statuses: Array<{ taskId: string; status: string }> = [];
        client.setNotificationHandler(TaskStatusNotificationSchema, (notification) => {
          statuses.push({ taskId: notification.params.taskId, status: notification.params.status });
        });
        const { task } = await startTask(client, 'slow');
        steer.gate.open();
        await eventually('the completion was told', () => statuses.some((s) => s.status === 'completed'));
        expect(statuses.every((s) => s.taskId === task.taskId)).to.equal(true);
      });
    });
  });

  for (const version of ['2025-03-26', '2025-06-18']) {
    describe(`a session of ${version}`, () => {
      const versionHeader = { 'mcp-protocol-version': version };

      async function openOld(url: string): Promise<{ session: string; capabilities: object }> {
        const init = await post(url, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
        expect(init.json.result.protocolVersion).to.equal(version);
        const session = init.headers.get('mcp-session-id')!;
        await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, { 'mcp-session-id': session, ...versionHeader });
        return { session, capabilities: init.json.result.capabilities };
      }

      it('gets no tasks capability', async () => {
        const { capabilities } = await openOld(await serve());
        expect(capabilities).to.have.property('tools');
        expect(capabilities).not.to.have.property('tasks');
      });

      describe('tools/list', () => {
        it('shows no tool\'s execution (the revision defines none)', async () => {
          const url = await serve();
          const { session } = await openOld(url);
          const listed = await post(url, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, { 'mcp-session-id': session, ...versionHeader });
          const tools = listed.json.result.tools as { name: string; execution?: unknown }[];
          expect(tools.map((tool) => tool.name)).to.include.members(['slow', 'quick', 'plain']);
          expect(tools.filter((tool) => 'execution' in tool).map((tool) => tool.name)).to.deep.equal([]);
        });

        it('leaves the execution of a 2025-11-25 session\'s listing as it is', async () => {
          const url = await serve();
          const { session } = await openOld(url);
          await post(url, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, { 'mcp-session-id': session, ...versionHeader });
          const client = await connect(url);
          const { tools } = await client.listTools();
          expect(tools.find((tool) => tool.name === 'quick')?.execution).to.deep.equal({ taskSupport: 'required' });
        });
      });

      it('has params.task ignored: the call is answered as an ordinary one, a required tool too', async () => {
        const url = await serve();
        const { session } = await openOld(url);
        const called = await post(url, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'quick', arguments: {}, task: { ttl: 1000 } } }, { 'mcp-session-id': session, ...versionHeader });
        expect(called.json.result).to.deep.equal({ content: [{ type: 'text', text: 'quick' }] });
        const plain = await post(url, { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'plain', arguments: {}, task: {} } }, { 'mcp-session-id': session, ...versionHeader });
        expect(plain.json.result).to.deep.equal({ content: [{ type: 'text', text: 'plain' }] });
      });

      it('answers tasks/get with -32601', async () => {
        const url = await serve();
        const { session } = await openOld(url);
        const got = await post(url, { jsonrpc: '2.0', id: 2, method: 'tasks/get', params: { taskId: 'x' } }, { 'mcp-session-id': session, ...versionHeader });
        expect(got.json.error.code).to.equal(-32601);
      });
    });
  }

  describe('over an in-memory connection', () => {
    it('runs a task to its result', async () => {
      const client = await connectInMemory(server = taskServer());
      clients.push(client);
      const { task, stream } = await startTask(client, 'quick');
      const last = await lastOf(stream);
      expect(last.type).to.equal('result');
      expect((last.result as { _meta: unknown })._meta).to.deep.equal({ [RELATED_TASK]: { taskId: task.taskId } });
    });

    it('asks the client for input on the connection', async () => {
      const client = await connectInMemory(server = taskServer(), { elicitation: { form: {} } });
      clients.push(client);
      client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { name: 'Lin' } }));
      const { stream } = await startTask(client, 'interview');
      await steer.gate.entered;
      steer.gate.open();
      expect(((await lastOf(stream)).result as { content: unknown }).content).to.deep.equal([{ type: 'text', text: 'hello Lin' }]);
    });
  });
});
