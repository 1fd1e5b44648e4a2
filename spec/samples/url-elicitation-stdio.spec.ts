import { join } from 'node:path';
import { expect } from 'chai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitationCompleteNotificationSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const SAMPLE = join(__dirname, '..', '..', 'samples', '04-elicitation', 'main.js');

describe('samples/04-elicitation over stdio', () => {
  context('when a tool sends the user to the sign-in page', () => {
    it('serves the page on a loopback port of its own, and the tool resumes with what was posted there', async function () {
      this.timeout(20_000);
      const client = new Client({ name: 'stdio-url-spec', version: '1' }, { capabilities: { elicitation: { url: {} } } });
      let received!: (url: string) => void;
      const sent = new Promise<string>((resolve) => (received = resolve));
      const completed: string[] = [];
      client.setRequestHandler(ElicitRequestSchema, async (request) => {
        if (request.params.mode === 'url') received(request.params.url);
        return { action: 'accept' };
      });
      client.setNotificationHandler(ElicitationCompleteNotificationSchema, (n) => void completed.push(n.params.elicitationId));
      await client.connect(new StdioClientTransport({ command: process.execPath, args: [SAMPLE], stderr: 'pipe' }));
      try {
        const call = client.callTool({ name: 'authenticate', arguments: {} });
        const url = await sent;
        expect(url).to.match(/^http:\/\/127\.0\.0\.1:\d+\/connect\/[0-9a-f-]{36}$/);
        const form = await (await fetch(url)).text();
        const token = /name="token" value="([^"]+)"/.exec(form)![1];
        const posted = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ token, value: 'Ada' }).toString() });
        expect(posted.status).to.equal(200);
        expect((await call).content).to.deep.equal([{ type: 'text', text: 'Authenticated as Ada' }]);
        expect(completed).to.deep.equal([url.split('/').pop()]);
      } finally {
        await client.close();
      }
    });
  });
});
