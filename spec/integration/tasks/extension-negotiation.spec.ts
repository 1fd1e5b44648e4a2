import 'reflect-metadata';
import { expect } from 'chai';
import { IsString } from 'class-validator';
import { Context, Field, PhantomServer, SILENT_DIAGNOSTICS, Tool } from '../../../lib';
import type { HttpListener } from '../../../lib/entries/http';
import { Gate } from '../../support/gate';
import { call, meta } from '../support/stateless-client';
import { callTool, DECLARING, getTask, TASKS, TASKS_MISSING_DATA, taskIdOf, taskReaching, taskRequest } from './support/extension-client';

class GreetArgs {
  @Field({ description: 'Who' }) @IsString() name!: string;
}

/** How many times the required tool's handler ran: a refused call never reaches it. */
let requiredRuns = 0;
let held = new Gate();

class NegotiatedTools {
  @Tool({ description: 'Never a task' })
  greet(args: GreetArgs) { return `Hello, ${args.name}!`; }

  @Tool({ description: 'A task when the request declares the extension', task: 'optional' })
  async maybe(_args: object, ctx: Context) {
    if (ctx.task) await held.pass(ctx.signal);
    return ctx.task ? 'ran as a task' : 'ran at once';
  }

  @Tool({ description: 'Only ever a task', task: 'required' })
  required() {
    requiredRuns += 1;
    return 'done';
  }
}

class PlainTools {
  @Tool({ description: 'No task anywhere' })
  greet(args: GreetArgs) { return `Hello, ${args.name}!`; }
}

describe('the tasks extension (2026-07-28): negotiation, gates and headers', () => {
  let server: PhantomServer;
  let listener: HttpListener;
  let url: string;

  before(async () => {
    server = new PhantomServer({ name: 'negotiated', version: '1', providers: [NegotiatedTools], diagnostics: SILENT_DIAGNOSTICS });
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

  describe('server/discover', () => {
    it('advertises the extension, and no 2025-11-25 tasks capability, when a tool has task', async () => {
      const reply = await call(url, 'server/discover', { _meta: meta(DECLARING) });
      expect(reply.body.result.capabilities.extensions).to.deep.equal({ [TASKS]: {} });
      expect(reply.body.result.capabilities).not.to.have.property('tasks');
    });

    context('when no tool has task', () => {
      it('advertises neither, and tasks/get is unknown (-32601, 404)', async () => {
        const plain = new PhantomServer({ name: 'plain', version: '1', providers: [PlainTools], diagnostics: SILENT_DIAGNOSTICS });
        const plainListener = await plain.listen({ port: 0 });
        try {
          const discovered = await call(plainListener.url, 'server/discover', { _meta: meta(DECLARING) });
          expect(discovered.body.result.capabilities).not.to.have.property('extensions');
          expect(discovered.body.result.capabilities).not.to.have.property('tasks');
          const get = await taskRequest(plainListener.url, 'tasks/get', { taskId: 'anything' });
          expect(get.status).to.equal(404);
          expect(get.body.error.code).to.equal(-32601);
        } finally {
          await plainListener.close();
          await plain.close();
        }
      });
    });
  });

  describe('tools/call', () => {
    context('when the request declares the extension in its own _meta', () => {
      it('answers a task-capable tool with a task', async () => {
        const reply = await callTool(url, 'maybe', {}, { extensions: { [TASKS]: {} } });
        expect(reply.body.result.resultType).to.equal('task');
        expect(reply.body.result.taskId).to.be.a('string');
        held.open();
        expect((await taskReaching(url, taskIdOf(reply), ['completed'])).result.content).to.deep.equal([{ type: 'text', text: 'ran as a task' }]);
      });
    });

    context('when the request does not declare it (whatever earlier requests declared)', () => {
      it('runs a task-capable tool at once and answers its ordinary result', async () => {
        await callTool(url, 'maybe', {}, DECLARING);
        held.open();
        const reply = await callTool(url, 'maybe', {}, { elicitation: {} });
        expect(reply.status).to.equal(200);
        expect(reply.body.result).to.deep.include({ resultType: 'complete', content: [{ type: 'text', text: 'ran at once' }] });
        expect(reply.body.result).not.to.have.any.keys('taskId', 'task', 'status');
      });

      it('refuses a tool that requires a task with -32021 (400) naming the extension, before its handler runs', async () => {
        const runs = requiredRuns;
        const reply = await callTool(url, 'required', {}, { elicitation: {} });
        expect(reply.status).to.equal(400);
        expect(reply.body.error.code).to.equal(-32021);
        expect(reply.body.error.data).to.deep.equal(TASKS_MISSING_DATA);
        expect(requiredRuns).to.equal(runs);
      });
    });

    context('when the request carries the 2025-11-25 task param', () => {
      it('ignores it: no task from a tool that has none, nor from a non-declaring request', async () => {
        const greet = await callTool(url, 'greet', { name: 'legacy' }, DECLARING, { task: { ttl: 60_000 } });
        expect(greet.body.result).to.deep.include({ resultType: 'complete', content: [{ type: 'text', text: 'Hello, legacy!' }] });
        const maybe = await callTool(url, 'maybe', {}, {}, { task: { ttl: 60_000 } });
        expect(maybe.body.result).to.deep.include({ resultType: 'complete', content: [{ type: 'text', text: 'ran at once' }] });
      });
    });
  });

  describe('tasks/get, tasks/update and tasks/cancel', () => {
    const methods: Array<[string, Record<string, unknown>]> = [
      ['tasks/get', {}],
      ['tasks/update', { inputResponses: {} }],
      ['tasks/cancel', {}],
    ];

    for (const [method, extra] of methods) {
      context(`${method} from a request that does not declare the extension`, () => {
        it('is refused with -32021 (400) and the extension in data, even for a task that does not exist', async () => {
          const reply = await taskRequest(url, method, { taskId: 'gate-test', ...extra }, { elicitation: {} });
          expect(reply.status).to.equal(400);
          expect(reply.body.error.code).to.equal(-32021);
          expect(reply.body.error.data).to.deep.equal(TASKS_MISSING_DATA);
        });

        it('is refused so for a real task too, though the request that created it declared the extension', async () => {
          const taskId = taskIdOf(await callTool(url, 'maybe'));
          const reply = await taskRequest(url, method, { taskId, ...extra }, {});
          expect(reply.body.error.code).to.equal(-32021);
          expect((await getTask(url, taskId)).status).to.equal('working');
        });
      });

      context(`${method} naming a task that does not exist`, () => {
        // Raised while serving, as an unknown tool or resource is: an ordinary answer, not a refusal of the request.
        it('answers -32602 (HTTP 200)', async () => {
          const reply = await taskRequest(url, method, { taskId: 'no-such-task', ...extra });
          expect(reply.status).to.equal(200);
          expect(reply.body.error.code).to.equal(-32602);
        });
      });

      context(`${method} whose Mcp-Name is not its taskId`, () => {
        it('is refused with -32020 (400) when the header names another task', async () => {
          const taskId = taskIdOf(await callTool(url, 'maybe'));
          const reply = await taskRequest(url, method, { taskId, ...extra }, DECLARING, { 'mcp-name': 'another-task' });
          expect(reply.status).to.equal(400);
          expect(reply.body.error.code).to.equal(-32020);
          expect((await getTask(url, taskId)).status).to.equal('working');
        });

        it('is refused with -32020 (400) when the header is missing', async () => {
          const taskId = taskIdOf(await callTool(url, 'maybe'));
          const reply = await taskRequest(url, method, { taskId, ...extra }, DECLARING, { 'mcp-name': undefined });
          expect(reply.status).to.equal(400);
          expect(reply.body.error.code).to.equal(-32020);
        });
      });
    }
  });

  describe('tasks/result and tasks/list', () => {
    for (const method of ['tasks/result', 'tasks/list']) {
      it(`${method} is not a method of the extension: -32601 (404), whatever the request declares`, async () => {
        for (const capabilities of [DECLARING, {}]) {
          const reply = await call(url, method, { _meta: meta(capabilities), taskId: 'tasks-conformance-isolation-probe' });
          expect(reply.status).to.equal(404);
          expect(reply.body.error.code).to.equal(-32601);
        }
      });
    }
  });
});
