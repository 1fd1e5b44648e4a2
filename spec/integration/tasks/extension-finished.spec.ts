import 'reflect-metadata';
import { expect } from 'chai';
import { PhantomServer, SILENT_DIAGNOSTICS, Tool } from '../../../lib';
import type { HttpListener } from '../../../lib/entries/http';
import { callTool, taskIdOf, taskReaching } from './support/extension-client';

class QuickTools {
  @Tool({ description: 'Answers at once, as a task', task: 'required' })
  quick() {
    return 'done';
  }
}

describe('the tasks extension (2026-07-28): finished tasks of one caller (raw HTTP)', () => {
  let server: PhantomServer;
  let listener: HttpListener;

  before(async () => {
    server = new PhantomServer({ name: 'finished', version: '1', providers: [QuickTools], diagnostics: SILENT_DIAGNOSTICS, tasks: { maxFinishedPerOwner: 1 } });
    listener = await server.listen({ port: 0 });
  });

  after(async () => {
    await listener.close();
    await server.close();
  });

  describe('tasks/get', () => {
    context('when a newer task\'s result took the place of the task\'s (tasks.maxFinishedPerOwner)', () => {
      it('shows the task failed with -32603 saying its result is no longer kept; the newer one keeps its result', async () => {
        const older = taskIdOf(await callTool(listener.url, 'quick'));
        await taskReaching(listener.url, older, ['completed']);
        const newer = taskIdOf(await callTool(listener.url, 'quick'));
        expect(await taskReaching(listener.url, newer, ['completed'])).to.have.nested.property('result.content[0].text', 'done');
        const shown = await taskReaching(listener.url, older, ['failed']);
        expect(shown).not.to.have.property('result');
        expect(shown.error).to.deep.include({ code: -32603, data: { resultDropped: true } });
        expect(shown.error.message).to.match(/no longer kept: .*at most 1 results/);
      });
    });
  });
});
