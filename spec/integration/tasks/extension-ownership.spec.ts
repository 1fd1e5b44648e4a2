import 'reflect-metadata';
import { expect } from 'chai';
import { IsBoolean } from 'class-validator';
import { Context, Elicit, Field, PhantomServer, SILENT_DIAGNOSTICS, Tool } from '../../../lib';
import type { HttpListener } from '../../../lib/entries/http';
import { Gate } from '../../support/gate';
import { callTool, DECLARING, getTask, taskIdOf, taskReaching, taskRequest } from './support/extension-client';

let held = new Gate();

@Elicit({ message: 'Go on?' })
class GoOn {
  @Field({ title: 'Go' }) @IsBoolean() go!: boolean;
}

class OwnedTools {
  @Tool({ description: 'Waits until the spec lets it go', task: 'optional' })
  async held(_args: object, ctx: Context) {
    await held.pass(ctx.signal);
    return 'let go';
  }

  @Tool({ description: 'Asks a question on the task', task: 'optional' })
  async asks(_args: object, ctx: Context) {
    const answer = await ctx.elicit(GoOn);
    return answer.action;
  }
}

/** The principal of a request is its `x-user` header (the spec's `authenticate` hook). */
const as = (user: string) => ({ 'x-user': user });

describe('the tasks extension (2026-07-28): whose a task is, and how many', () => {
  let server: PhantomServer;
  let listener: HttpListener;
  let url: string;

  before(async () => {
    server = new PhantomServer({ name: 'owned', version: '1', providers: [OwnedTools], diagnostics: SILENT_DIAGNOSTICS, tasks: { maxActivePerOwner: 1 } });
    listener = await server.listen({ port: 0, authenticate: ({ headers }) => ({ allow: true, principal: { sub: String(headers['x-user']) } }) });
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

  describe('another principal naming the task', () => {
    it('gets -32602 from tasks/get, tasks/update and tasks/cancel, as for a task that does not exist, and changes nothing', async () => {
      const taskId = taskIdOf(await callTool(url, 'asks', {}, DECLARING, {}, as('ada')));
      const waiting = await taskReaching(url, taskId, ['input_required'], as('ada'));
      const [key] = Object.keys(waiting.inputRequests);
      const tries: Array<[string, Record<string, unknown>]> = [
        ['tasks/get', {}],
        ['tasks/update', { inputResponses: { [key]: { action: 'accept', content: { go: true } } } }],
        ['tasks/cancel', {}],
      ];
      for (const [method, extra] of tries) {
        const reply = await taskRequest(url, method, { taskId, ...extra }, DECLARING, as('mallory'));
        expect(reply.body.error, method).to.deep.include({ code: -32602, message: 'Task not found' });
      }
      expect(await getTask(url, taskId, as('ada'))).to.deep.equal(waiting);
      await taskRequest(url, 'tasks/cancel', { taskId }, DECLARING, as('ada'));
    });
  });

  describe('tasks.maxActivePerOwner', () => {
    it('refuses a principal\'s second task while its first runs (-32010), not another principal\'s, and takes it once the first ended', async () => {
      const first = taskIdOf(await callTool(url, 'held', {}, DECLARING, {}, as('ada')));
      const refused = await callTool(url, 'held', {}, DECLARING, {}, as('ada'));
      expect(refused.body.error).to.deep.include({ code: -32010, data: { maxActiveTasks: 1 } });
      expect(refused.status).to.equal(503);

      const other = taskIdOf(await callTool(url, 'held', {}, DECLARING, {}, as('grace')));
      held.open();
      await taskReaching(url, first, ['completed'], as('ada'));
      await taskReaching(url, other, ['completed'], as('grace'));
      held = new Gate();
      expect((await callTool(url, 'held', {}, DECLARING, {}, as('ada'))).body.result.resultType).to.equal('task');
    });
  });
});
