import 'reflect-metadata';
import { expect } from 'chai';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { PhantomServer, Tool } from '../../../lib';
import { connect } from 'phantom-mcp/testing';

const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };

class Hidden {
  @Tool({ description: 'A task only admins know of', task: 'required' })
  purge() { return 'purged'; }

  @Tool({ description: 'An ordinary tool only admins know of' })
  peek() { return 'peeked'; }
}

/** Every tool hidden from everyone: a caller must not learn that they exist, task or not. */
function server(): PhantomServer {
  return new PhantomServer({ name: 'hidden', version: '1', providers: [Hidden], visible: () => false });
}

describe('tools a visibility rule hides', () => {
  context('in the session era (2025-11-25)', () => {
    for (const [tool, task] of [['purge', undefined], ['purge', {}], ['peek', {}]] as const) {
      it(`answers ${tool}${task ? ' called as a task' : ''} as an unknown tool, not with a task rule`, async () => {
        const client = await connect(server());
        try {
          const reply = await client.request({ method: 'tools/call', params: { name: tool, arguments: {}, ...(task ? { task } : {}) } }, CallToolResultSchema)
            .then(() => undefined, (error: { code?: number; message?: string }) => error);
          expect(reply).to.deep.include({ code: -32602 });
          expect(reply!.message).to.include(`Unknown tool: ${tool}`);
        } finally {
          await client.close();
        }
      });
    }
  });

  context('in the stateless era, with the tasks extension', () => {
    it('answers a hidden task tool as an unknown tool, with no task made', async () => {
      const client = await connect(server(), { era: 'stateless', capabilities: TASKS });
      try {
        const reply = await client.callTool({ name: 'purge', arguments: {} }).then(() => undefined, (error: { code?: number; message?: string }) => error);
        expect(reply).to.deep.include({ code: -32602 });
        expect(reply!.message).to.include('Unknown tool: purge');
      } finally {
        await client.close();
      }
    });

    it('answers a hidden tool that requires a task, called without the extension, as an unknown tool, not -32021', async () => {
      const client = await connect(server(), { era: 'stateless' });
      try {
        const reply = await client.callTool({ name: 'purge', arguments: {} }).then(() => undefined, (error: { code?: number; message?: string }) => error);
        expect(reply).to.deep.include({ code: -32602 });
        expect(reply!.message).to.include('Unknown tool: purge');
      } finally {
        await client.close();
      }
    });
  });
});
