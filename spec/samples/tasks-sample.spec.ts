import 'reflect-metadata';
import { getEventListeners } from 'node:events';
import { expect } from 'chai';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import * as tasks from '../../samples/09-tasks/main';
import { connect } from 'phantom-mcp/testing';
import { Context, PhantomError } from '../../lib';
import { FakeChannel } from '../context/fake-channel';

describe('samples', () => {
  describe('09-tasks', () => {
    it('runs the report as a task: progress on the way, the confirmation half way, the result at the end', async () => {
      const server = tasks.createServer();
      const asked: string[] = [];
      const client = await connect(server, {
        elicit: (params) => {
          asked.push(params.message);
          return { action: 'accept', content: { send: true } };
        },
      });
      const progress: number[] = [];
      const seen: string[] = [];
      let result: any;
      try {
        const stream = client.experimental.tasks.callToolStream(
          { name: 'quarterlyReport', arguments: { quarter: '2026-Q3', stepSeconds: 0 } },
          CallToolResultSchema,
          { task: { ttl: 60_000 }, onprogress: (p) => void progress.push(p.progress) },
        );
        for await (const message of stream) {
          seen.push(message.type);
          if (message.type === 'result') result = message.result;
          if (message.type === 'error') throw message.error;
        }
      } finally {
        await client.close();
        await server.close();
      }
      expect(seen[0]).to.equal('taskCreated');
      expect(asked).to.deep.equal(['The report is ready. Mail it to the board?']);
      expect(progress).to.deep.equal([1, 2, 3, 4]);
      expect(result.structuredContent).to.include({ quarter: '2026-Q3', mailed: true });
      expect(result.structuredContent.task).to.be.a('string');
    });

    describe('ReportTools#quarterlyReport', () => {
      const args = (stepSeconds: number) => Object.assign(new tasks.ReportArgs(), { quarter: '2026-Q3', stepSeconds });
      const contextOn = (signal: AbortSignal) => new Context({
        signal,
        clientCapabilities: { elicitation: { form: {} } },
        channel: new FakeChannel(() => ({ action: 'accept', content: { send: false } })),
      });

      it('waits with ctx.sleep, leaving no listener on the call\'s signal', async () => {
        const controller = new AbortController();
        const result = await new tasks.ReportTools().quarterlyReport(args(0), contextOn(controller.signal));
        expect(result).to.deep.equal({ quarter: '2026-Q3', mailed: false, task: null });
        expect(getEventListeners(controller.signal, 'abort')).to.have.length(0);
      });

      it('stops at the step it is on when the call is cancelled', async () => {
        const controller = new AbortController();
        const running = new tasks.ReportTools().quarterlyReport(args(60), contextOn(controller.signal)).catch((e: unknown) => e);
        controller.abort('the task was cancelled');
        const stopped = (await running) as PhantomError;
        expect(stopped).to.be.instanceOf(PhantomError);
        expect(stopped.code).to.equal('cancelled');
        expect(getEventListeners(controller.signal, 'abort')).to.have.length(0);
      });
    });
  });
});
