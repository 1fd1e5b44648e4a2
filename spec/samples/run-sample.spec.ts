import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/** The conformance sample: its `test_tool_with_progress` reports progress, then runs on a little. */
const SAMPLE = join(__dirname, '..', '..', 'samples', 'conformance', 'main.js');
const PROGRESS_DONE = { content: [{ type: 'text', text: 'Progress test completed' }] };

function exitCode(child: ChildProcess): Promise<number | null> {
  return once(child, 'exit').then(([code]) => code as number | null);
}

describe('runSample', () => {
  context('when SIGTERM arrives during a call over HTTP', () => {
    it('lets the call finish, then exits 0', async () => {
      const child = spawn(process.execPath, [SAMPLE, '--http', '--port', '0'], { stdio: ['ignore', 'ignore', 'pipe'] });
      const exited = exitCode(child);
      let stderr = '';
      child.stderr!.setEncoding('utf8').on('data', (chunk: string) => { stderr += chunk; });
      while (!/serving MCP at \S+\n/.test(stderr)) await once(child.stderr!, 'data');
      const url = /serving MCP at (\S+)/.exec(stderr)![1];
      const client = new Client({ name: 'sigterm-spec', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      let signalled = false;
      const result = await client.callTool({ name: 'test_tool_with_progress' }, undefined, {
        onprogress: () => {
          if (!signalled) child.kill('SIGTERM');
          signalled = true;
        },
      });
      expect(result).to.deep.equal(PROGRESS_DONE);
      expect(await exited).to.equal(0);
      expect(stderr).to.include('SIGTERM, finishing the calls in flight');
      await client.close();
    });
  });

  context('when SIGTERM arrives during a call over stdio', () => {
    it('lets the call finish, then exits 0', async () => {
      const child = spawn(process.execPath, [SAMPLE], { stdio: ['pipe', 'pipe', 'pipe'] });
      const exited = exitCode(child);
      const send = (message: object) => child.stdin!.write(`${JSON.stringify(message)}\n`);
      const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
      const next = async () => JSON.parse(String((await lines.next()).value));
      send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'sigterm-spec', version: '1' } } });
      expect(await next()).to.have.property('result');
      send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'test_tool_with_progress', _meta: { progressToken: 'p' } } });
      expect(await next()).to.have.property('method', 'notifications/progress');
      child.kill('SIGTERM');
      let answer = await next();
      while (!('id' in answer)) answer = await next();
      expect(answer).to.deep.equal({ jsonrpc: '2.0', id: 2, result: PROGRESS_DONE });
      expect(await exited).to.equal(0);
    });
  });
});
