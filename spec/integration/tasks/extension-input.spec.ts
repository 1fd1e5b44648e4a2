import 'reflect-metadata';
import { expect } from 'chai';
import { IsBoolean, IsOptional, IsString } from 'class-validator';
import { Context, Elicit, Field, PhantomServer, SILENT_DIAGNOSTICS, Tool, ToolResult } from '../../../lib';
import type { HttpListener } from '../../../lib/entries/http';
import { eventually } from '../../support/eventually';
import { callTool, DECLARING, getTask, taskIdOf, taskReaching, taskRequest } from './support/extension-client';

@Elicit({ message: 'Who is it for?' })
class NameForm {
  @Field({ title: 'Name' }) @IsString() name!: string;
  @Field({ title: 'Confirm' }) @IsOptional() @IsBoolean() confirm?: boolean;
}

const nameOf = (answer: { action: string; content?: { name: string } }) => (answer.action === 'accept' ? answer.content!.name : answer.action);

class AskingTools {
  @Tool({ description: 'Asks one question on the task, then another', task: 'optional' })
  async twice(_args: object, ctx: Context) {
    const first = await ctx.elicit(NameForm);
    const second = await ctx.elicit(NameForm, { message: 'And who else?' });
    return `For ${nameOf(first)} then ${nameOf(second)}`;
  }

  @Tool({ description: 'Asks two questions at once on the task', task: 'optional' })
  async both(_args: object, ctx: Context) {
    const answers = await Promise.all([ctx.elicit(NameForm), ctx.elicit(NameForm, { message: 'And who else?' })]);
    return `For ${answers.map(nameOf).join(' and ')}`;
  }

  @Tool({ description: 'Asks for a name in the request itself, then runs as a task', task: 'required', taskStart: 'explicit' })
  async explicit(_args: object, ctx: Context) {
    const answer = await ctx.elicit(NameForm, { key: 'user_name' });
    if (answer.action !== 'accept') return ToolResult.error(`Elicitation ${answer.action}`);
    await ctx.runAsTask();
    return `Hello, ${answer.content.name}, from a task`;
  }
}

const accept = (name: string) => ({ action: 'accept', content: { name } });

/** The one key the task waits on now (fails when it is not exactly one). */
async function onlyKey(url: string, taskId: string): Promise<string> {
  const task = await taskReaching(url, taskId, ['input_required']);
  const keys = Object.keys(task.inputRequests);
  expect(keys).to.have.length(1);
  return keys[0];
}

describe('the tasks extension (2026-07-28): what a task asks the client', () => {
  let server: PhantomServer;
  let listener: HttpListener;
  let url: string;

  before(async () => {
    server = new PhantomServer({ name: 'asking', version: '1', providers: [AskingTools], diagnostics: SILENT_DIAGNOSTICS });
    listener = await server.listen({ port: 0 });
    url = listener.url;
  });

  after(async () => {
    await listener.close();
    await server.close();
  });

  /** Answers `inputResponses` on the task; the reply. */
  const update = (taskId: string, inputResponses: Record<string, unknown>) => taskRequest(url, 'tasks/update', { taskId, inputResponses });

  describe('tasks/get', () => {
    it('shows the task input_required with its outstanding request, as an elicitation/create', async () => {
      const taskId = taskIdOf(await callTool(url, 'twice'));
      const task = await taskReaching(url, taskId, ['input_required']);
      const [request] = Object.values(task.inputRequests) as any[];
      expect(request.method).to.equal('elicitation/create');
      expect(request.params).to.deep.include({ message: 'Who is it for?' });
      expect(request.params.requestedSchema).to.deep.include({ type: 'object' });
      await taskRequest(url, 'tasks/cancel', { taskId });
    });
  });

  describe('tasks/update', () => {
    context('when the task asks twice in sequence', () => {
      it('uses a new key for the second question, and ignores (and acks) the first key sent again', async () => {
        const taskId = taskIdOf(await callTool(url, 'twice'));
        const first = await onlyKey(url, taskId);
        const ack = await update(taskId, { [first]: accept('Ada') });
        expect(ack.body.result.resultType).to.equal('complete');
        const second = await onlyKey(url, taskId);
        expect(second).not.to.equal(first);

        const again = await update(taskId, { [first]: accept('Mallory') });
        expect(again.body.result.resultType).to.equal('complete');
        expect(Object.keys((await getTask(url, taskId)).inputRequests)).to.deep.equal([second]);

        await update(taskId, { [second]: accept('Grace') });
        const done = await taskReaching(url, taskId, ['completed', 'failed', 'cancelled']);
        expect(done.result.content).to.deep.equal([{ type: 'text', text: 'For Ada then Grace' }]);
      });
    });

    context('when the task waits on two requests at once and one is answered', () => {
      it('keeps it input_required, showing only the other key, right after the ack', async () => {
        const taskId = taskIdOf(await callTool(url, 'both'));
        let keys: string[] = [];
        await eventually('both questions outstanding', async () => {
          keys = Object.keys((await getTask(url, taskId)).inputRequests ?? {});
          return keys.length === 2;
        });
        const [answered, other] = keys;
        expect((await update(taskId, { [answered]: accept('partial-1') })).body.result.resultType).to.equal('complete');
        const after = await getTask(url, taskId);
        expect(after.status).to.equal('input_required');
        expect(Object.keys(after.inputRequests)).to.deep.equal([other]);

        await update(taskId, { [other]: accept('partial-2') });
        const done = await taskReaching(url, taskId, ['completed', 'failed', 'cancelled']);
        expect(done.result.content).to.deep.equal([{ type: 'text', text: 'For partial-1 and partial-2' }]);
      });
    });

    context('when a key was never issued', () => {
      it('ignores its answer, whatever its shape, and acks', async () => {
        const taskId = taskIdOf(await callTool(url, 'twice'));
        const key = await onlyKey(url, taskId);
        const ack = await update(taskId, { 'unknown-key': { ignored: true }, another: 'not even an object' });
        expect(ack.body.result.resultType).to.equal('complete');
        const task = await getTask(url, taskId);
        expect(task.status).to.equal('input_required');
        expect(Object.keys(task.inputRequests)).to.deep.equal([key]);
        await taskRequest(url, 'tasks/cancel', { taskId });
      });
    });

    context('when the answer to an outstanding key is not a valid result of its request', () => {
      it('answers -32602 and the task still waits on the key', async () => {
        const taskId = taskIdOf(await callTool(url, 'twice'));
        const key = await onlyKey(url, taskId);
        const reply = await update(taskId, { [key]: { action: 'maybe' } });
        expect(reply.status).to.equal(200);
        expect(reply.body.error.code).to.equal(-32602);
        expect(reply.body.error.message).to.include(key);
        const task = await getTask(url, taskId);
        expect(task.status).to.equal('input_required');
        expect(Object.keys(task.inputRequests)).to.deep.equal([key]);
        await taskRequest(url, 'tasks/cancel', { taskId });
      });
    });

    context('when the task is terminal', () => {
      it('acks and changes nothing', async () => {
        const taskId = taskIdOf(await callTool(url, 'twice'));
        const key = await onlyKey(url, taskId);
        await taskRequest(url, 'tasks/cancel', { taskId });
        const cancelled = await getTask(url, taskId);
        const ack = await update(taskId, { [key]: accept('late') });
        expect(ack.body.result.resultType).to.equal('complete');
        expect(await getTask(url, taskId)).to.deep.equal(cancelled);
      });
    });
  });

  describe('input before the task (taskStart: explicit)', () => {
    it('asks in the request itself first (no task yet), then answers the retry with a task', async () => {
      const first = await callTool(url, 'explicit');
      expect(first.body.result.resultType).to.equal('input_required');
      expect(first.body.result).not.to.have.property('taskId');
      expect(Object.keys(first.body.result.inputRequests)).to.deep.equal(['user_name']);

      const second = await callTool(url, 'explicit', {}, DECLARING, { inputResponses: { user_name: accept('Alice') }, requestState: first.body.result.requestState });
      expect(second.body.result.resultType).to.equal('task');
      expect(second.body.result).not.to.have.any.keys('requestState', 'inputRequests');
      const done = await taskReaching(url, taskIdOf(second), ['completed', 'failed', 'cancelled']);
      expect(done.result.content).to.deep.equal([{ type: 'text', text: 'Hello, Alice, from a task' }]);
    });
  });
});
