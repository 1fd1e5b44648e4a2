import 'reflect-metadata';
import { expect } from 'chai';
import { z } from 'zod';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { connect, expectToolError, textOf } from 'phantom-mcp/testing';
import { createServer } from '../../../docs/examples/extension';

const ANY_RESULT = z.object({}).passthrough();
const CHAT_FORMS = 'com.example/chat-forms';

/** What the extensions guide (docs/guide/extensions.md) claims, run against docs/examples/extension.ts. */
describe('docs/examples/extension.ts (the extensions guide)', () => {
  const failureOf = (promise: Promise<unknown>) => promise.then(() => undefined, (error: unknown) => error as McpError);

  describe('the changelog extension', () => {
    it('is advertised with its settings under capabilities.extensions', async () => {
      const client = await connect(createServer());
      const extensions = (client.getServerCapabilities() as { extensions?: Record<string, unknown> }).extensions;
      expect(extensions).to.deep.include({ 'com.example/changelog': { latest: '1.1.0' }, [CHAT_FORMS]: {} });
      await client.close();
    });

    it('serves changelog/list, and refuses a bad cursor with -32602', async () => {
      const client = await connect(createServer());
      expect(await client.request({ method: 'changelog/list', params: {} } as never, ANY_RESULT)).to.deep.equal({ versions: ['1.1.0', '1.0.0'] });
      expect((await failureOf(client.request({ method: 'changelog/list', params: { cursor: 7 } } as never, ANY_RESULT)))?.code).to.equal(-32602);
      await client.close();
    });

    it('gives changelog/list its cache hint and resultType in 2026-07-28', async () => {
      const client = await connect(createServer(), { era: 'stateless' });
      const result = await client.request({ method: 'changelog/list', params: {} } as never, ANY_RESULT);
      expect(result).to.include({ resultType: 'complete', ttlMs: 60_000, cacheScope: 'public' });
      await client.close();
    });

    it('serves each release as a resource, listed and read as a @Resource is', async () => {
      const client = await connect(createServer());
      const { resources } = await client.listResources();
      expect(resources.map((resource) => resource.uri)).to.deep.equal(['changelog://1.1.0', 'changelog://1.0.0']);
      const { contents } = await client.readResource({ uri: 'changelog://1.0.0' });
      expect(contents[0]).to.deep.include({ uri: 'changelog://1.0.0', text: '# 1.0.0\n\nReminders.' });
      expect((await failureOf(client.readResource({ uri: 'changelog://9.9.9' })))?.code).to.equal(-32002);
      await client.close();
    });
  });

  describe('the preview extension (the tool hook)', () => {
    it('hides a preview tool from a client that does not declare the extension, in lists and calls', async () => {
      const client = await connect(createServer());
      expect((await client.listTools()).tools.map((tool) => tool.name)).not.to.include('snoozeAll');
      const refused = await failureOf(client.callTool({ name: 'snoozeAll', arguments: {} }));
      expect(refused?.code).to.equal(-32602);
      expect(refused?.message).to.contain('Unknown tool: snoozeAll');
      await client.close();
    });

    it('lists it, flagged, to a client that declares the extension', async () => {
      const client = await connect(createServer(), { capabilities: { extensions: { 'com.example/preview': {} } } as never });
      const snooze = (await client.listTools()).tools.find((tool) => tool.name === 'snoozeAll');
      expect(snooze?._meta).to.deep.equal({ 'com.example/preview': { preview: true } });
      expect(textOf(await client.callTool({ name: 'snoozeAll', arguments: {} }))).to.equal('Snoozed.');
      await client.close();
    });
  });

  describe('the chat-forms extension (elicitationFallback, tokens, serveTools, callTool)', () => {
    /** Calls remind with a client that cannot elicit: the token the waiting result carries. */
    async function waitingToken(client: Awaited<ReturnType<typeof connect>>): Promise<string> {
      const waiting = await client.callTool({ name: 'remind', arguments: {} });
      expect(textOf(waiting)).to.equal('Ask the user: "When should I remind you?". Then call answer_form with this token and their answers.');
      return (waiting._meta as any)[CHAT_FORMS].token;
    }

    it('ends the call asking the model to ask the user; answer_form resumes it with the answer', async () => {
      const client = await connect(createServer());
      const token = await waitingToken(client);
      const done = await client.callTool({ name: 'answer_form', arguments: { token, answers: { time: '09:30' } } });
      expect(textOf(done)).to.equal('Reminder set for 09:30.');
      await client.close();
    });

    it('checks the answer with the form\'s own validator', async () => {
      const client = await connect(createServer());
      const token = await waitingToken(client);
      expectToolError(await client.callTool({ name: 'answer_form', arguments: { token, answers: { time: 'soon' } } }), /is invalid:\ntime: must be HH:MM/);
      await client.close();
    });

    it('refuses a token that was changed', async () => {
      const client = await connect(createServer());
      const token = await waitingToken(client);
      const edited = token.slice(0, -2) + (token.endsWith('AA') ? 'BB' : 'AA');
      expectToolError(await client.callTool({ name: 'answer_form', arguments: { token: edited, answers: { time: '09:30' } } }), /cannot be answered \(invalid\)/);
      await client.close();
    });

    it('refuses another caller\'s token', async () => {
      const server = createServer();
      const alice = await connect(server, { principal: { sub: 'alice' } });
      const token = await waitingToken(alice);
      const bob = await connect(server, { principal: { sub: 'bob' } });
      expectToolError(await bob.callTool({ name: 'answer_form', arguments: { token, answers: { time: '09:30' } } }), /cannot be answered \(principal\)/);
      await alice.close();
      await bob.close();
    });

    it('leaves a client that elicits with ordinary elicitation requests', async () => {
      const client = await connect(createServer(), { elicit: { action: 'accept', content: { time: '07:15' } } });
      expect(textOf(await client.callTool({ name: 'remind', arguments: {} }))).to.equal('Reminder set for 07:15.');
      await client.close();
    });
  });
});
