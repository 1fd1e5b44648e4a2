import 'reflect-metadata';
import { expect } from 'chai';
import { ElicitRequestSchema, ErrorCode as SdkErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { IsString } from 'class-validator';
import { ClientError, Context, Elicit, Field, InMemoryTransport, PhantomServer, Prompt, SILENT_DIAGNOSTICS, Tool, userText, type Diagnostics } from '../../lib';
import type { HttpListener } from '../../lib/entries/http';
import { connect, structuredOf } from 'phantom-mcp/testing';
import { connectHttp } from './support/sdk-clients';
import { call, meta } from './support/stateless-client';

@Elicit({ message: 'Your name?' })
class NameForm {
  @Field({ title: 'Name' }) @IsString() name!: string;
}

class AskingTools {
  @Tool({ description: 'Elicits and lets every failure pass' })
  async careless(_args: object, ctx: Context) {
    const answer = await ctx.elicit(NameForm);
    return answer.action === 'accept' ? `Hello ${answer.content.name}` : answer.action;
  }

  @Tool({ description: 'Elicits and reports what the client said' })
  async careful(_args: object, ctx: Context) {
    try {
      await ctx.elicit(NameForm);
      return 'answered';
    } catch (error) {
      if (error instanceof ClientError) return `${error.method} failed: ${String(error.code)} ${error.clientMessage}`;
      throw error;
    }
  }

  @Tool({ description: 'Lists the client roots' })
  async roots(_args: object, ctx: Context) {
    return { roots: await ctx.listRoots() };
  }

  @Tool({ description: 'Asks the client model' })
  async ask(_args: object, ctx: Context) {
    const reply = await ctx.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 5 });
    return `model said: ${(reply.content as { text?: unknown }).text}`;
  }

  @Prompt({ description: 'Elicits while building a prompt' })
  async named(_args: object, ctx: Context) {
    await ctx.elicit(NameForm);
    return [userText('hi')];
  }
}

function newServer(diagnostics: Diagnostics = SILENT_DIAGNOSTICS): PhantomServer {
  return new PhantomServer({ name: 'c', version: '1', providers: [AskingTools], diagnostics });
}

/** A hand-driven client on an in-memory pipe, for answers the official client never sends. */
async function rawClient(server: PhantomServer, capabilities: Record<string, unknown>) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const inbox: any[] = [];
  const waiters: Array<() => void> = [];
  clientSide.onmessage = (message) => { inbox.push(message); waiters.splice(0).forEach((wake) => wake()); };
  await clientSide.start();
  const next = async (match: (m: any) => boolean): Promise<any> => {
    for (;;) {
      const index = inbox.findIndex(match);
      if (index !== -1) return inbox.splice(index, 1)[0];
      await new Promise<void>((wake) => waiters.push(wake));
    }
  };
  const send = (message: object) => clientSide.send(message as never);
  await send({ jsonrpc: '2.0', id: 'init', method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities, clientInfo: { name: 'raw', version: '1' } } });
  await next((m) => m.id === 'init');
  await send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return { send, next, close: () => clientSide.close() };
}

describe('ClientError: errors the client answers with', () => {
  let server: PhantomServer;

  beforeEach(() => { server = newServer(); });
  afterEach(() => server.close());

  context('when the official client\'s elicitation handler throws (in memory)', () => {
    it('ends a tool that lets it pass with an isError result, not with the client\'s -32601', async () => {
      const client = await connect(server, { elicit: async () => { throw new McpError(SdkErrorCode.MethodNotFound, 'no forms here'); } });
      const result = await client.callTool({ name: 'careless' });
      expect(result).to.deep.equal({
        content: [{ type: 'text', text: 'The client answered elicitation/create with error -32601: MCP error -32601: no forms here' }],
        isError: true,
      });
      await client.close();
    });

    it('lets the tool see the client\'s method, code and message', async () => {
      const client = await connect(server, { elicit: async () => { throw new Error('the user closed the window'); } });
      const result = await client.callTool({ name: 'careful' });
      expect(result.content).to.deep.equal([{ type: 'text', text: 'elicitation/create failed: -32603 the user closed the window' }]);
      await client.close();
    });

    it('answers a prompt that lets it pass with an internal error of its own', async () => {
      const client = await connect(server, { elicit: async () => { throw new McpError(SdkErrorCode.MethodNotFound, 'no forms here'); } });
      const failure = await client.getPrompt({ name: 'named' }).then(() => undefined, (error: McpError) => error);
      expect(failure?.code).to.equal(-32603);
      await client.close();
    });

    it('tells the client what failed in that error, and writes nothing to the diagnostics (the client can cause it at will)', async () => {
      const logged: string[] = [];
      const watched = newServer({ error: (message) => { logged.push(message); }, warn: (message) => { logged.push(message); } });
      const client = await connect(watched, { elicit: async () => { throw new McpError(SdkErrorCode.MethodNotFound, 'no forms here'); } });
      const failure = await client.getPrompt({ name: 'named' }).then(() => undefined, (error: McpError) => error);
      expect(failure?.message).to.equal('MCP error -32603: The client answered elicitation/create with error -32601: MCP error -32601: no forms here');
      expect(logged).to.deep.equal([]);
      await client.close();
      await watched.close();
    });
  });

  context('when the official client\'s elicitation handler throws (over HTTP)', () => {
    let listener: HttpListener;
    beforeEach(async () => { listener = await server.listen({ port: 0 }); });
    afterEach(() => listener.close());

    it('ends the tool call with an isError result', async () => {
      const { client } = await connectHttp(listener.url, { elicitation: { form: {} } });
      client.setRequestHandler(ElicitRequestSchema, async () => { throw new McpError(SdkErrorCode.InvalidParams, 'bad form'); });
      const result = await client.callTool({ name: 'careless' });
      expect(result.isError).to.equal(true);
      expect(result.content).to.deep.equal([{ type: 'text', text: 'The client answered elicitation/create with error -32602: MCP error -32602: bad form' }]);
      await client.close();
    });
  });

  context('when the client answers with an error whose code is not an integer', () => {
    it('never forwards that code: the tool sees no code and the call ends with an isError result', async () => {
      const client = await rawClient(server, { elicitation: { form: {} } });
      await client.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'careful' } });
      const elicitation = await client.next((m) => m.method === 'elicitation/create');
      await client.send({ jsonrpc: '2.0', id: elicitation.id, error: { code: 'teapot', message: 'short and stout' } });
      const careful = await client.next((m) => m.id === 2);
      expect(careful.result.content).to.deep.equal([{ type: 'text', text: 'elicitation/create failed: undefined short and stout' }]);

      await client.send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'careless' } });
      const again = await client.next((m) => m.method === 'elicitation/create');
      await client.send({ jsonrpc: '2.0', id: again.id, error: { code: 1.5, message: 'half' } });
      const careless = await client.next((m) => m.id === 3);
      expect(careless).to.deep.equal({
        jsonrpc: '2.0', id: 3, result: { content: [{ type: 'text', text: 'The client answered elicitation/create with an error: half' }], isError: true },
      });
      await client.close();
    });
  });
});

describe('Context#sample', () => {
  let server: PhantomServer;

  beforeEach(() => { server = newServer(); });
  afterEach(() => server.close());

  context('when the client answers with a result that is not a sampling result', () => {
    it('rejects with a ClientError, so the tool call ends with an isError result saying so', async () => {
      const client = await rawClient(server, { sampling: {} });
      await client.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'ask' } });
      const request = await client.next((m) => m.method === 'sampling/createMessage');
      await client.send({ jsonrpc: '2.0', id: request.id, result: { model: 'm' } });
      const reply = await client.next((m) => m.id === 2);
      expect(reply.result).to.deep.equal({
        content: [{ type: 'text', text: 'The client\'s answer to sampling/createMessage is malformed: it needs a "role" and a "content" object' }],
        isError: true,
      });
      await client.close();
    });
  });
});

describe('Context#listRoots', () => {
  let server: PhantomServer;

  beforeEach(() => { server = newServer(); });
  afterEach(() => server.close());

  it('returns the roots of a well-formed answer', async () => {
    const client = await connect(server, { roots: [{ uri: 'file:///home/ada', name: 'home' }, { uri: 'file:///tmp' }] });
    expect(structuredOf(await client.callTool({ name: 'roots' }))).to.deep.equal({ roots: [{ uri: 'file:///home/ada', name: 'home' }, { uri: 'file:///tmp' }] });
    await client.close();
  });

  const MALFORMED: ReadonlyArray<[string, unknown, string]> = [
    ['no list of roots', { roots: 'file:///' }, '"roots" must be an array'],
    ['a root that is not an object', { roots: ['file:///'] }, 'roots[0] must be an object'],
    ['a URI that is not file://', { roots: [{ uri: 'file:///ok' }, { uri: 'https://example.com/' }] }, 'roots[1].uri must be a file:// URI'],
    ['a name that is not a string', { roots: [{ uri: 'file:///a', name: 7 }] }, 'roots[0].name must be a string'],
  ];

  for (const [what, answer, problem] of MALFORMED) {
    context(`when the client answers with ${what}`, () => {
      it('rejects with a ClientError, so the tool call ends with an isError result', async () => {
        const client = await rawClient(server, { roots: {} });
        await client.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'roots' } });
        const request = await client.next((m) => m.method === 'roots/list');
        await client.send({ jsonrpc: '2.0', id: request.id, result: answer });
        const reply = await client.next((m) => m.id === 2);
        expect(reply.result).to.deep.equal({ content: [{ type: 'text', text: `The client's answer to roots/list is malformed: ${problem}` }], isError: true });
        await client.close();
      });
    });
  }

  context('in the stateless era, where the answer comes in inputResponses', () => {
    let listener: HttpListener;
    beforeEach(async () => { listener = await server.listen({ port: 0 }); });
    afterEach(() => listener.close());

    async function answerRoots(answer: unknown) {
      const first = await call(listener.url, 'tools/call', { _meta: meta({ roots: {} }), name: 'roots' });
      const [key] = Object.keys(first.body.result.inputRequests);
      return call(listener.url, 'tools/call', { _meta: meta({ roots: {} }), name: 'roots', inputResponses: { [key]: answer }, requestState: first.body.result.requestState });
    }

    it('returns the roots of a well-formed answer', async () => {
      const reply = await answerRoots({ roots: [{ uri: 'file:///srv', name: 'srv' }] });
      expect(reply.body.result.structuredContent).to.deep.equal({ roots: [{ uri: 'file:///srv', name: 'srv' }] });
    });

    it('refuses a root that is not a file:// URI as invalid params of the request that carried it', async () => {
      const reply = await answerRoots({ roots: [{ uri: 'https://example.com/' }] });
      expect(reply.body.error).to.deep.equal({ code: -32602, message: 'inputResponses["roots-1"] is not a valid roots/list result: roots[0].uri must be a file:// URI' });
    });
  });
});
