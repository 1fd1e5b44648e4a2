import { expect } from 'chai';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { HttpListener } from '../../lib/entries/http';
import { createServer } from '../../samples/conformance/main';
import { PNG_BASE64, WAV_BASE64 } from '../../samples/conformance/conformance.fixtures';

const FIXTURE = join(__dirname, '..', '..', 'samples', 'conformance', 'main.js');

/** The suite passes servers that lack some fixtures, so these pin what ours answers, exactly. */
function exactAnswers(connect: () => Promise<Client>) {
  let client: Client;
  before(async () => {
    client = await connect();
    client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
      expect(request.params).to.deep.include({ messages: [{ role: 'user', content: { type: 'text', text: 'Test prompt' } }], maxTokens: 100 });
      return { role: 'assistant', content: { type: 'text', text: 'model answer' }, model: 'test' };
    });
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { username: 'u', email: 'e@example.com' } }));
  });
  after(() => client.close());

  const call = (name: string, args: Record<string, unknown> = {}) => client.callTool({ name, arguments: args });

  it('answers every fixture tool with its exact content', async () => {
    expect(await call('test_simple_text')).to.deep.equal({ content: [{ type: 'text', text: 'This is a simple text response for testing.' }] });
    expect(await call('test_image_content')).to.deep.equal({ content: [{ type: 'image', data: PNG_BASE64, mimeType: 'image/png' }] });
    expect(await call('test_audio_content')).to.deep.equal({ content: [{ type: 'audio', data: WAV_BASE64, mimeType: 'audio/wav' }] });
    expect(await call('test_embedded_resource')).to.deep.equal({
      content: [{ type: 'resource', resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' } }],
    });
    expect((await call('test_multiple_content_types')).content).to.have.length(3);
    expect(await call('test_error_handling')).to.deep.equal({ content: [{ type: 'text', text: 'This tool intentionally returns an error for testing' }], isError: true });
    expect(await call('test_tool_with_logging')).to.deep.equal({ content: [{ type: 'text', text: 'Tool with logging executed successfully' }] });
    expect(await call('test_tool_with_progress')).to.deep.equal({ content: [{ type: 'text', text: 'Progress test completed' }] });
    expect(await call('test_sampling', { prompt: 'Test prompt' })).to.deep.equal({ content: [{ type: 'text', text: 'LLM response: model answer' }] });
    expect(await call('test_elicitation', { message: 'Who?' })).to.deep.equal({
      content: [{ type: 'text', text: 'User response: action=accept, content={"username":"u","email":"e@example.com"}' }],
    });
    expect(await call('json_schema_2020_12_tool', { name: 'n', contactMethod: 'email', email: 'e@example.com' })).to.deep.equal({
      content: [{ type: 'text', text: 'JSON Schema 2020-12 tool called with: {"name":"n","contactMethod":"email","email":"e@example.com"}' }],
    });
  });

  it('serves the fixture resources and prompts exactly', async () => {
    expect(await client.readResource({ uri: 'test://static-text' })).to.deep.equal({
      contents: [{ uri: 'test://static-text', mimeType: 'text/plain', text: 'This is the content of the static text resource.' }],
    });
    expect(await client.readResource({ uri: 'test://static-binary' })).to.deep.equal({ contents: [{ uri: 'test://static-binary', mimeType: 'image/png', blob: PNG_BASE64 }] });
    expect(await client.readResource({ uri: 'test://template/123/data' })).to.deep.equal({
      contents: [{ uri: 'test://template/123/data', mimeType: 'application/json', text: '{"id":"123","templateTest":true,"data":"Data for ID: 123"}' }],
    });
    expect((await client.getPrompt({ name: 'test_prompt_with_arguments', arguments: { arg1: 'a', arg2: 'b' } })).messages)
      .to.deep.equal([{ role: 'user', content: { type: 'text', text: "Prompt with arguments: arg1='a', arg2='b'" } }]);
    expect((await client.getPrompt({ name: 'test_simple_prompt' })).messages)
      .to.deep.equal([{ role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } }]);
  });
}

describe('conformance fixture, with the official SDK client', () => {
  const capabilities = { sampling: {}, elicitation: {} };

  describe('over stdio', () => {
    exactAnswers(async () => {
      const client = new Client({ name: 'fixture-stdio', version: '1' }, { capabilities });
      await client.connect(new StdioClientTransport({ command: process.execPath, args: [FIXTURE], stderr: 'pipe' }));
      return client;
    });
  });

  describe('over HTTP', () => {
    let listener: HttpListener;
    const server = createServer();
    after(async () => { await listener.close(); await server.close(); });
    exactAnswers(async () => {
      listener = await server.listen({ port: 0 });
      const client = new Client({ name: 'fixture-http', version: '1' }, { capabilities });
      await client.connect(new StreamableHTTPClientTransport(new URL(listener.url)));
      return client;
    });
  });
});
