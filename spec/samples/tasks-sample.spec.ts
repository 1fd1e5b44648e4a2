import 'reflect-metadata';
import { expect } from 'chai';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import * as tasks from '../../samples/09-tasks/main';
import { connect } from 'phantom-mcp/testing';

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
  });
});
