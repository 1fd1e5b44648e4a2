import 'reflect-metadata';
import { expect } from 'chai';
import { Context } from '../../lib/context/context';
import { Cancellation } from '../../lib/core/cancellation';
import type { JsonRpcRequest } from '../../lib/core/jsonrpc';
import type { Outcome } from '../../lib/router/router';
import { runRequest, type EraCodec, type RunnableRequest, type ServedOutcome } from '../../lib/protocol/request-runner';
import type { TaskRecord } from '../../lib/protocol/seams/task-store';
import type { PendingTask } from '../../lib/protocol/tasks/task-service';

const MESSAGE: JsonRpcRequest = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'slow' } };

/** The task starters the codec made contexts with. */
const startersSeen: unknown[] = [];

/** A codec that says what it was asked to answer. */
const CODEC: EraCodec<RunnableRequest, string, TaskRecord> = {
  nothing: 'nothing',
  context: (_request, taskStarter) => (startersSeen.push(taskStarter), new Context({ taskStarter })),
  taskCreated: (_request, task) => `task ${task.id}`,
  answer: (_request, outcome) => ('result' in outcome ? `result ${JSON.stringify(outcome.result)}` : `error ${outcome.error.code}`),
  refused: (_request, refusal) => `refused ${refusal.kind}`,
};

function request(): RunnableRequest & { cancellation: Cancellation } {
  return { message: MESSAGE, cancellation: new Cancellation() };
}

/** A call that may become a task: `start()` stores it; `finished` is what the runner handed on. */
function pendingTask() {
  let store!: (task: TaskRecord) => void;
  const started = new Promise<TaskRecord>((resolve) => (store = resolve));
  const handedOn: Promise<Outcome>[] = [];
  const pending = {
    running: undefined as TaskRecord | undefined,
    starter: { start: async () => { throw new Error('not used'); } },
    started,
    finish: (outcome: Promise<Outcome>) => void handedOn.push(outcome),
  };
  const start = (id: string) => {
    pending.running = { id } as TaskRecord;
    store(pending.running);
  };
  return { pending: pending as PendingTask, start, handedOn };
}

describe('runRequest', () => {
  context('when the request is served', () => {
    it('answers what it came to, through the era\'s codec', async () => {
      expect(await runRequest(CODEC, request(), undefined, async () => ({ result: { ok: true } }))).to.equal('result {"ok":true}');
      expect(await runRequest(CODEC, request(), undefined, async () => ({ error: { code: -32602, message: 'no' } }))).to.equal('error -32602');
    });

    it('serves it with the context its codec makes, with the task starter when the call may become a task', async () => {
      const { pending } = pendingTask();
      startersSeen.length = 0;
      let seen: Context | undefined;
      await runRequest(CODEC, request(), pending, async (ctx) => { seen = ctx; return { result: {} }; });
      await runRequest(CODEC, request(), undefined, async () => ({ result: {} }));
      expect(seen).to.be.instanceOf(Context);
      expect(startersSeen).to.deep.equal([pending.starter, undefined]);
    });
  });

  context('when it was cancelled while served', () => {
    it('answers nothing', async () => {
      const cancelled = request();
      const answer = await runRequest(CODEC, cancelled, undefined, async () => {
        cancelled.cancellation.cancel('client gave up');
        return { result: { late: true } };
      });
      expect(answer).to.equal('nothing');
    });

    it('answers what it came to when the method answers though cancelled (a listen stream the server closed)', async () => {
      const cancelled = request();
      const answer = await runRequest(CODEC, cancelled, undefined, async () => {
        cancelled.cancellation.cancel('closing');
        return { result: { closed: true } };
      }, { answersWhenCancelled: true });
      expect(answer).to.equal('result {"closed":true}');
    });
  });

  context('when it is served with nothing to answer', () => {
    it('answers nothing', async () => {
      expect(await runRequest(CODEC, request(), undefined, async (): Promise<ServedOutcome> => ({ result: undefined }))).to.equal('nothing');
    });
  });

  context('when the call becomes a task', () => {
    it('answers with the task once it is stored, while its handler goes on, and hands the handler\'s outcome to the task', async () => {
      const { pending, start, handedOn } = pendingTask();
      let end!: () => void;
      const handlerEnds = new Promise<void>((resolve) => (end = resolve));
      const answer = runRequest(CODEC, request(), pending, async () => {
        start('t-1');
        await handlerEnds;
        return { result: { done: true } };
      });
      expect(await answer).to.equal('task t-1');
      expect(handedOn).to.have.length(1);
      end();
      expect(await handedOn[0]).to.deep.equal({ result: { done: true } });
    });
  });

  context('when a call that may become a task ends as an ordinary one', () => {
    it('answers what it came to, and hands nothing to a task', async () => {
      const { pending, handedOn } = pendingTask();
      expect(await runRequest(CODEC, request(), pending, async () => ({ result: { now: true } }))).to.equal('result {"now":true}');
      expect(handedOn).to.deep.equal([]);
    });
  });
});
