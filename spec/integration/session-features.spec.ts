import 'reflect-metadata';
import { expect } from 'chai';
import {
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema, ToolListChangedNotificationSchema, ElicitationCompleteNotificationSchema, McpError,
} from '@modelcontextprotocol/sdk/types.js';
import { connect, expectToolError, structuredOf, textOf, type ElicitAnswer } from 'phantom-mcp/testing';
import { InMemoryTransport } from '../../lib';
import { Extra, everythingServer, observed } from './support/everything.fixture';
import { SEED_REQUESTED_SCHEMA } from '../support/seed-form';

const GOOD_ANSWER = { name: 'Ada', email: 'ada@example.com', role: 'pm' };

describe('session era, with the official SDK client (in-memory)', () => {
  describe('initialize', () => {
    it('negotiates the newest version and reports server info, capabilities and instructions', async () => {
      const client = await connect(everythingServer());
      expect(client.getServerVersion()).to.deep.equal({ name: 'everything', version: '1.2.3' });
      expect(client.getInstructions()).to.equal('Use every tool');
      expect(client.getServerCapabilities()).to.deep.equal({
        logging: {}, completions: {}, tools: { listChanged: true }, prompts: { listChanged: true }, resources: { subscribe: true, listChanged: true },
      });
      await client.close();
    });

    for (const [asked, answered] of [['2025-03-26', '2025-03-26'], ['2025-06-18', '2025-06-18'], ['2025-11-25', '2025-11-25'], ['2024-01-01', '2025-11-25']]) {
      it(`answers ${answered} to a client asking for ${asked}`, async () => {
        const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
        await everythingServer().connect(serverSide);
        const replies: unknown[] = [];
        clientSide.onmessage = (m) => replies.push(m);
        await clientSide.start();
        await clientSide.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: asked, capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
        await new Promise((r) => setTimeout(r, 20));
        expect(replies).to.have.length(1);
        expect(replies[0]).to.have.nested.property('result.protocolVersion', answered);
      });
    }

    it('answers a request before initialize with an error and a ping with {}', async () => {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await everythingServer().connect(serverSide);
      const replies: any[] = [];
      clientSide.onmessage = (m) => replies.push(m);
      await clientSide.start();
      await clientSide.send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
      await clientSide.send({ jsonrpc: '2.0', id: 2, method: 'ping' });
      await new Promise((r) => setTimeout(r, 20));
      expect(replies[0]).to.deep.include({ id: 1 }).and.have.nested.property('error.code', -32600);
      expect(replies[1]).to.deep.equal({ jsonrpc: '2.0', id: 2, result: {} });
    });
  });

  describe('every method', () => {
    it('lists, calls, reads, gets and completes', async () => {
      const client = await connect(everythingServer());
      expect((await client.listTools()).tools.map((t) => t.name)).to.include.members(['echo', 'steps', 'greet']);
      expect(await client.callTool({ name: 'echo', arguments: { text: 'hi' } })).to.deep.equal({ content: [{ type: 'text', text: 'hi' }] });
      expect((await client.listResources()).resources.map((r) => r.uri)).to.deep.equal(['test://watched']);
      expect((await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)).to.deep.equal(['test://items/{id}']);
      expect(await client.readResource({ uri: 'test://items/2' })).to.deep.equal({ contents: [{ uri: 'test://items/2', mimeType: 'text/plain', text: 'item 2' }] });
      expect((await client.getPrompt({ name: 'hello', arguments: { text: 'yo' } })).messages).to.deep.equal([{ role: 'user', content: { type: 'text', text: 'yo' } }]);
      expect((await client.listPrompts()).prompts.map((p) => p.name)).to.deep.equal(['hello']);
      expect((await client.complete({ ref: { type: 'ref/prompt', name: 'hello' }, argument: { name: 'text', value: 'hel' } })).completion.values).to.deep.equal(['hello', 'help']);
      expect(await client.ping()).to.deep.equal({});
      await client.close();
    });

    it('rejects an unknown tool with -32602', async () => {
      const client = await connect(everythingServer());
      const error = await client.callTool({ name: 'nope' }).catch((e: unknown) => e);
      expect(error).to.be.instanceOf(McpError).with.property('code', -32602);
      await client.close();
    });

    it('rejects an unknown resource with -32002', async () => {
      const client = await connect(everythingServer());
      const error = await client.readResource({ uri: 'test://nothing' }).catch((e: unknown) => e);
      expect(error).to.be.instanceOf(McpError).with.property('code', -32002);
      await client.close();
    });
  });

  describe('elicitation', () => {
    it('hands the tool a validated instance on accept', async () => {
      const seen: unknown[] = [];
      const client = await connect(everythingServer(), { elicit: (params) => { seen.push(params); return { action: 'accept', content: GOOD_ANSWER }; } });
      expect(await client.callTool({ name: 'greet' })).to.deep.equal({ content: [{ type: 'text', text: 'Hello Ada (pm)' }] });
      expect(seen[0]).to.deep.equal({
        mode: 'form',
        message: 'What is your info?',
        requestedSchema: SEED_REQUESTED_SCHEMA,
      });
      await client.close();
    });

    for (const action of ['decline', 'cancel']) {
      it(`reports ${action} to the tool`, async () => {
        const client = await connect(everythingServer(), { elicit: { action } as ElicitAnswer });
        expect(expectToolError(await client.callTool({ name: 'greet' }))).to.equal(`Elicitation ${action}`);
        await client.close();
      });
    }

    it('reports a timeout when the client never answers', async () => {
      const client = await connect(everythingServer({ requestTimeoutMs: 50 }), { elicit: () => new Promise(() => {}) });
      expect(expectToolError(await client.callTool({ name: 'greet' }))).to.equal('Elicitation timeout');
      await client.close();
    });

    it('falls back when the client cannot elicit', async () => {
      const client = await connect(everythingServer());
      expect(textOf(await client.callTool({ name: 'greet' }))).to.equal('Hello stranger');
      await client.close();
    });

    it('sends URL mode and the completion notification', async () => {
      const server = everythingServer();
      const client = await connect(server, {
        capabilities: { elicitation: { url: {} } },
        elicit: (params) => {
          expect(params).to.deep.equal({ mode: 'url', message: 'Sign in', url: 'https://example.com/sign-in?e=fixture-1', elicitationId: 'fixture-1' });
          setTimeout(() => server.notifyElicitationComplete('fixture-1'), 5);
          return { action: 'accept' };
        },
      });
      const completed: string[] = [];
      client.setNotificationHandler(ElicitationCompleteNotificationSchema, (n) => { completed.push(n.params.elicitationId); });
      expect((await client.callTool({ name: 'signIn' })).content).to.deep.equal([{ type: 'text', text: 'signed in' }]);
      await new Promise((r) => setTimeout(r, 20));
      expect(completed).to.deep.equal(['fixture-1']);
      await client.close();
    });

    it('answers a tool that needs a URL elicitation with -32042 and the elicitations', async () => {
      const client = await connect(everythingServer(), { capabilities: { elicitation: { url: {} } } });
      const error: any = await client.callTool({ name: 'guarded' }).catch((e: unknown) => e);
      expect(error.code).to.equal(-32042);
      expect(error.data).to.deep.equal({ elicitations: [{ mode: 'url', message: 'Authorise', url: 'https://example.com/authorise', elicitationId: 'auth-1' }] });
      await client.close();
    });
  });

  describe('sampling and roots', () => {
    it('asks the client model', async () => {
      const client = await connect(everythingServer(), { sample: { role: 'assistant', content: { type: 'text', text: 'hi!' }, model: 'm' } });
      expect(textOf(await client.callTool({ name: 'ask' }))).to.equal('model said: hi!');
      await client.close();
    });

    it('lists the client roots', async () => {
      const client = await connect(everythingServer(), { roots: [{ uri: 'file:///work', name: 'work' }] });
      expect(structuredOf(await client.callTool({ name: 'roots' }))).to.deep.equal({ roots: [{ uri: 'file:///work', name: 'work' }] });
      await client.close();
    });
  });

  describe('progress and logging', () => {
    it('delivers progress for the request token', async () => {
      const client = await connect(everythingServer());
      const progress: unknown[] = [];
      await client.callTool({ name: 'steps' }, undefined, { onprogress: (p) => progress.push(p) });
      expect(progress).to.deep.equal([
        { progress: 1, total: 3, message: 'step 1' }, { progress: 2, total: 3, message: 'step 2' }, { progress: 3, total: 3, message: 'step 3' },
      ]);
      await client.close();
    });

    it('filters log messages by the level the client set', async () => {
      const client = await connect(everythingServer());
      const levels: string[] = [];
      client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => { levels.push(n.params.level); });
      await client.callTool({ name: 'chatty' });
      expect(await client.setLoggingLevel('warning')).to.deep.equal({});
      await client.callTool({ name: 'chatty' });
      expect(levels).to.deep.equal(['debug', 'info', 'warning', 'error', 'warning', 'error']);
      await client.close();
    });
  });

  describe('cancellation', () => {
    it('aborts the handler and sends no result', async () => {
      const client = await connect(everythingServer());
      const controller = new AbortController();
      const before = observed.cancelled;
      const call = client.callTool({ name: 'wait' }, undefined, { signal: controller.signal }).catch((e: Error) => e);
      await new Promise((r) => setTimeout(r, 20));
      controller.abort('changed my mind');
      expect(await call).to.be.instanceOf(Error);
      await new Promise((r) => setTimeout(r, 20));
      expect(observed.cancelled).to.equal(before + 1);
      await client.close();
    });
  });

  describe('subscriptions and list changes', () => {
    it('sends resources/updated to subscribers only', async () => {
      const server = everythingServer();
      const subscriber = await connect(server);
      const bystander = await connect(server);
      const got = { subscriber: [] as string[], bystander: [] as string[] };
      subscriber.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => { got.subscriber.push(n.params.uri); });
      bystander.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => { got.bystander.push(n.params.uri); });
      await subscriber.subscribeResource({ uri: 'test://watched' });
      await bystander.callTool({ name: 'touch' });
      await new Promise((r) => setTimeout(r, 20));
      expect(got).to.deep.equal({ subscriber: ['test://watched'], bystander: [] });
      await subscriber.unsubscribeResource({ uri: 'test://watched' });
      await bystander.callTool({ name: 'touch' });
      await new Promise((r) => setTimeout(r, 20));
      expect(got.subscriber).to.have.length(1);
      await subscriber.close();
      await bystander.close();
    });

    it('announces tools/list_changed after a runtime change', async () => {
      const server = everythingServer();
      const client = await connect(server);
      let changes = 0;
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => { changes += 1; });
      server.add(Extra);
      await new Promise((r) => setTimeout(r, 20));
      expect(changes).to.equal(1);
      expect((await client.listTools()).tools.map((t) => t.name)).to.include('extra');
      await client.close();
    });
  });

  describe('a long-lived pipe', () => {
    it('keeps its session, and its subscriptions, past the idle timeout', async () => {
      const server = everythingServer({ sessionIdleMs: 60 });
      const client = await connect(server);
      const updates: string[] = [];
      client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => { updates.push(n.params.uri); });
      await client.subscribeResource({ uri: 'test://watched' });
      await new Promise((r) => setTimeout(r, 250));
      await server.resourceUpdated('test://watched');
      await new Promise((r) => setTimeout(r, 20));
      expect(updates).to.deep.equal(['test://watched']);
      await client.close();
      await server.close();
    });
  });

  describe('visibility', () => {
    it('hides what the application says the caller may not see', async () => {
      const server = everythingServer({ visible: (item) => !(item.kind === 'tool' && item.name === 'echo') });
      const client = await connect(server);
      expect((await client.listTools()).tools.map((t) => t.name)).not.to.include('echo');
      expect(await client.callTool({ name: 'echo', arguments: { text: 'x' } }).catch((e: McpError) => e.code)).to.equal(-32602);
      await client.close();
    });
  });
});
