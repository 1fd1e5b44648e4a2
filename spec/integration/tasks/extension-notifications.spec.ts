import 'reflect-metadata';
import { expect } from 'chai';
import { IsString } from 'class-validator';
import { Context, Elicit, Field, PhantomServer, SILENT_DIAGNOSTICS, Tool, type JsonObject } from '../../../lib';
import type { HttpListener } from '../../../lib/entries/http';
import type { TaskRecord } from '../../../lib/entries/seams';
import { SubscriptionHub } from '../../../lib/protocol/events/subscription-hub';
import { TaskNotifications } from '../../../lib/protocol/tasks/task-notifications';
import { Gate } from '../../support/gate';
import { openSse } from '../support/raw-http';
import { call, meta, VERSION } from '../support/stateless-client';
import { callTool, DECLARING, getTask, TASKS_MISSING_DATA, taskIdOf, taskRequest } from './support/extension-client';

const SUBSCRIPTION = 'io.modelcontextprotocol/subscriptionId';

@Elicit({ message: 'Who is it for?' })
class NameForm {
  @Field({ title: 'Name' }) @IsString() name!: string;
}

/** What the `asks` tool waits for before it asks (so that a stream can be opened on its task first). */
let asking = new Gate();
/** What the `waits` tool waits for (never opened: its task ends when cancelled). */
const waiting = new Gate();

class NotifiedTools {
  @Tool({ description: 'Waits for the spec, asks a name, then greets', task: 'optional' })
  async asks(_args: object, ctx: Context) {
    await asking.pass(ctx.signal);
    const answer = await ctx.elicit(NameForm);
    return answer.action === 'accept' ? `Hello, ${answer.content.name}` : answer.action;
  }

  @Tool({ description: 'Waits until cancelled', task: 'optional' })
  async waits(_args: object, ctx: Context) {
    await waiting.pass(ctx.signal);
    return 'never';
  }
}

class PlainTools {
  @Tool({ description: 'No task anywhere' })
  plain() { return 'plain'; }
}

const as = (user: string) => ({ 'x-user': user });

/** A `subscriptions/listen` stream, as `user`, with `capabilities`, read one message at a time. */
function listen(url: string, id: string, notifications: Record<string, unknown>, user = 'ada', capabilities: object = DECLARING) {
  return openSse(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': VERSION, 'mcp-method': 'subscriptions/listen', ...as(user) },
    body: JSON.stringify({ jsonrpc: '2.0', id, method: 'subscriptions/listen', params: { _meta: meta(capabilities as Record<string, unknown>), notifications } }),
  });
}

/** The `tasks/get` result as a notification carries it: the same DetailedTask, without `resultType` and the server's `_meta`. */
async function detailedTask(url: string, taskId: string, user: string): Promise<Record<string, unknown>> {
  const { resultType: _type, _meta: _server, ...task } = await getTask(url, taskId, as(user));
  return task;
}

describe('the tasks extension (2026-07-28): notifications/tasks on subscriptions/listen', () => {
  let server: PhantomServer;
  let listener: HttpListener;
  let url: string;

  before(async () => {
    server = new PhantomServer({ name: 'notified', version: '1', providers: [NotifiedTools], diagnostics: SILENT_DIAGNOSTICS, maxSubscriptionsPerSession: 2 });
    listener = await server.listen({ port: 0, authenticate: ({ headers }) => ({ allow: true, principal: { sub: String(headers['x-user']) } }) });
    url = listener.url;
  });

  after(async () => {
    asking.open();
    waiting.open();
    await listener.close();
    await server.close();
  });

  context('when a stream names a task its principal owns', () => {
    it('acknowledges the task id, then carries the DetailedTask at each change, as tasks/get shows it then', async () => {
      asking = new Gate();
      const gate = asking;
      const taskId = taskIdOf(await callTool(url, 'asks', {}, DECLARING, {}, as('ada')));
      const stream = await listen(url, 'ada-stream', { taskIds: [taskId] });
      try {
        expect(await stream.next()).to.deep.equal({
          jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged',
          params: { notifications: { taskIds: [taskId] }, _meta: { [SUBSCRIPTION]: 'ada-stream' } },
        });
        gate.open();

        const asked = await stream.next();
        expect(asked.method).to.equal('notifications/tasks');
        expect(asked.params._meta).to.deep.equal({ [SUBSCRIPTION]: 'ada-stream' });
        const { _meta: _tag, ...askedTask } = asked.params;
        expect(askedTask).to.deep.include({ taskId, status: 'input_required' });
        expect(askedTask).to.deep.equal(await detailedTask(url, taskId, 'ada'));
        const [key] = Object.keys(askedTask.inputRequests);

        await taskRequest(url, 'tasks/update', { taskId, inputResponses: { [key]: { action: 'accept', content: { name: 'Ada' } } } }, DECLARING, as('ada'));
        const resumed = await stream.next();
        expect(resumed.params).to.deep.include({ taskId, status: 'working' });
        expect(resumed.params).not.to.have.property('inputRequests');

        const done = await stream.next();
        const { _meta: _doneTag, ...doneTask } = done.params;
        expect(doneTask).to.deep.include({ taskId, status: 'completed' });
        expect(doneTask.result.content).to.deep.equal([{ type: 'text', text: 'Hello, Ada' }]);
        expect(doneTask).to.deep.equal(await detailedTask(url, taskId, 'ada'));
      } finally {
        stream.close();
      }
    });
  });

  context('when a stream names another principal\'s task', () => {
    it('hears nothing of it, only of the tasks its own principal owns', async () => {
      asking = new Gate();
      const gate = asking;
      const adas = taskIdOf(await callTool(url, 'asks', {}, DECLARING, {}, as('ada')));
      const mallorys = taskIdOf(await callTool(url, 'waits', {}, DECLARING, {}, as('mallory')));
      const owner = await listen(url, 'ada-stream', { taskIds: [adas] });
      const snoop = await listen(url, 'mallory-stream', { taskIds: [adas, mallorys] }, 'mallory');
      try {
        await owner.next();
        expect((await snoop.next()).params.notifications).to.deep.equal({ taskIds: [adas, mallorys] });
        gate.open();
        expect((await owner.next()).params).to.deep.include({ taskId: adas, status: 'input_required' });
        await taskRequest(url, 'tasks/cancel', { taskId: adas }, DECLARING, as('ada'));
        expect((await owner.next()).params).to.deep.include({ taskId: adas, status: 'cancelled' });
        // Every change of Ada's task reached the streams before this: the snoop's first message is of its own task.
        await taskRequest(url, 'tasks/cancel', { taskId: mallorys }, DECLARING, as('mallory'));
        expect((await snoop.next()).params).to.deep.include({ taskId: mallorys, status: 'cancelled' });
      } finally {
        owner.close();
        snoop.close();
      }
    });
  });

  context('when the request asks for taskIds without declaring the extension', () => {
    it('is refused with -32021 (400) naming the extension', async () => {
      const reply = await call(url, 'subscriptions/listen', { _meta: meta({ elicitation: {} }), notifications: { taskIds: ['any'] } }, as('ada'));
      expect(reply.status).to.equal(400);
      expect(reply.body.error.code).to.equal(-32021);
      expect(reply.body.error.data).to.deep.equal(TASKS_MISSING_DATA);
    });
  });

  context('when taskIds is not a list of strings, or longer than maxSubscriptionsPerSession', () => {
    it('is refused with -32602 (400)', async () => {
      const notAList = await call(url, 'subscriptions/listen', { _meta: meta(DECLARING), notifications: { taskIds: [1, 2] } }, as('ada'));
      expect(notAList.status).to.equal(400);
      expect(notAList.body.error.code).to.equal(-32602);
      const tooMany = await call(url, 'subscriptions/listen', { _meta: meta(DECLARING), notifications: { taskIds: ['a', 'b', 'c'] } }, as('ada'));
      expect(tooMany.status).to.equal(400);
      expect(tooMany.body.error).to.deep.include({ code: -32602, data: { maxSubscriptionsPerSession: 2 } });
    });
  });

  context('when no tool of the server has task', () => {
    it('leaves taskIds out of the acknowledgement, whatever the request declares', async () => {
      const plain = new PhantomServer({ name: 'plain', version: '1', providers: [PlainTools], diagnostics: SILENT_DIAGNOSTICS });
      const plainListener = await plain.listen({ port: 0 });
      try {
        const stream = await listen(plainListener.url, 'plain-stream', { toolsListChanged: true, taskIds: ['any'] }, 'ada', {});
        expect((await stream.next()).params.notifications).to.deep.equal({ toolsListChanged: true });
        stream.close();
      } finally {
        await plainListener.close();
        await plain.close();
      }
    });
  });
});

describe('TaskNotifications', () => {
  /** The hub's streams as the tasks extension's host shows them (its key, `taskIds`). */
  const listenersOf = (hub: SubscriptionHub) => ({
    isListenedFor: (id: string) => hub.watches('taskIds', id),
    notifyListeners: (id: string, method: string, params: JsonObject, mayKnow: (principal: unknown) => boolean) => hub.notify('taskIds', id, method, params, mayKnow),
  });

  /** A task service whose reads the spec answers, in any order. */
  function slowTasks() {
    const reads: Array<{ id: string; answer: (task: TaskRecord | undefined) => void }> = [];
    let changed: (id: string) => void | Promise<void> = () => {};
    return {
      reads,
      change: (id: string) => changed(id),
      service: {
        onChange: (listener: (id: string) => void | Promise<void>) => { changed = listener; return () => {}; },
        peek: (id: string) => new Promise<TaskRecord | undefined>((answer) => reads.push({ id, answer })),
      },
    };
  }

  const record = (id: string, status: TaskRecord['status']): TaskRecord => ({ id, owner: 'anyone', era: 'stateless', tool: 't', status, createdAt: 0, lastUpdatedAt: 0, ttlMs: 1000, pollIntervalMs: 100 });

  context('when no stream here names the task', () => {
    it('does not read it', () => {
      const tasks = slowTasks();
      const hub = new SubscriptionHub();
      new TaskNotifications(tasks.service, listenersOf(hub));
      hub.add({ extensionIds: { taskIds: ['other'] } }, undefined, () => {}, () => {});
      tasks.change('t1');
      expect(tasks.reads).to.deep.equal([]);
    });
  });

  context('when a later read of the task comes back first', () => {
    it('still delivers the snapshots in the order the changes were heard', async () => {
      const tasks = slowTasks();
      const hub = new SubscriptionHub();
      new TaskNotifications(tasks.service, listenersOf(hub));
      const heard: string[] = [];
      hub.add({ extensionIds: { taskIds: ['t1'] } }, undefined, (_method, params) => heard.push(params.status as string), () => {});
      const first = tasks.change('t1');
      const second = tasks.change('t1');
      tasks.reads[1].answer(record('t1', 'completed'));
      await new Promise((resolve) => setImmediate(resolve));
      expect(heard).to.deep.equal([]);
      tasks.reads[0].answer(record('t1', 'input_required'));
      await first;
      await second;
      expect(heard).to.deep.equal(['input_required', 'completed']);
    });
  });
});
