import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const SAMPLES = join(__dirname, '..', '..', 'samples');
const SAMPLE_TOOLS: Record<string, string[]> = {
  '01-hello-tool': ['hello', 'now'],
  '02-resources': [],
  '03-prompts': [],
  '04-elicitation': ['greet', 'authenticate'],
  '05-dependency-injection': ['stock', 'buy'],
  '06-pipeline': ['read', 'word_count', 'write', 'freeze', 'unfreeze'],
  showcase: ['hello', 'now', 'greet', 'authenticate', 'stock', 'buy'],
};

describe('samples over real transports, with the official SDK client', () => {
  for (const [sample, tools] of Object.entries(SAMPLE_TOOLS)) {
    it(`${sample} serves over stdio`, async () => {
      const transport = new StdioClientTransport({ command: process.execPath, args: [join(SAMPLES, sample, 'main.js')], stderr: 'pipe' });
      const client = new Client({ name: 'stdio-spec', version: '1' });
      await client.connect(transport);
      const caps = client.getServerCapabilities() ?? {};
      const listed = caps.tools ? (await client.listTools()).tools.map((t) => t.name) : [];
      expect(listed).to.deep.equal(tools);
      await client.close();
    });
  }

  it('01-hello-tool calls a tool over stdio', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [join(SAMPLES, '01-hello-tool', 'main.js')], stderr: 'pipe' });
    const client = new Client({ name: 'stdio-spec', version: '1' });
    await client.connect(transport);
    expect(await client.callTool({ name: 'hello', arguments: { name: 'Ada', greeting: 'Hi' } })).to.deep.equal({ content: [{ type: 'text', text: 'Hi, Ada!' }] });
    await client.close();
  });

  it('a sample exits when its stdin ends', async () => {
    const child = spawn(process.execPath, [join(SAMPLES, '01-hello-tool', 'main.js')], { stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdin.end();
    const [code] = await once(child, 'exit');
    expect(code).to.equal(0);
  });

  it('a sample whose stdout the client closed ends its session and exits 0, without an uncaught EPIPE', async () => {
    const child = spawn(process.execPath, [join(SAMPLES, '01-hello-tool', 'main.js')], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => { stderr += chunk; });
    child.stdout.destroy();
    // The answer to this request meets the closed pipe.
    child.stdin.write('{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}\n');
    const [code] = await once(child, 'exit');
    expect(stderr).not.to.include('EPIPE');
    expect(code).to.equal(0);
  });

  it('03-prompts serves over HTTP with --http --port', async () => {
    const child = spawn(process.execPath, [join(SAMPLES, '03-prompts', 'main.js'), '--http', '--port', '0'], { stdio: ['ignore', 'ignore', 'pipe'] });
    try {
      let banner = '';
      while (!banner.includes('\n')) banner += (await once(child.stderr, 'data'))[0];
      const url = /serving MCP at (\S+)/.exec(banner)![1];
      const client = new Client({ name: 'http-spec', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      expect((await client.listPrompts()).prompts.map((p) => p.name)).to.deep.equal(['plan', 'smallTalk', 'withGuide']);
      await client.close();
    } finally {
      child.kill();
    }
  });
});
