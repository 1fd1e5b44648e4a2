import 'reflect-metadata';
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { connect } from 'phantom-mcp/testing';
import { createServer } from '../../../docs/examples/prompts';
import { failureOf } from '../../support/failure-of';

describe('docs/examples/prompts.ts (the prompts guide)', () => {
  it('sends an argument\'s title from @Field', async () => {
    const outcome = await createServer().handle('prompts/list', {}) as { result: { prompts: Array<{ arguments?: unknown[] }> } };
    expect(outcome.result.prompts[0].arguments?.[0]).to.deep.equal({ name: 'city', title: 'City', description: 'Where to go', required: true });
  });

  for (const era of ['session', 'stateless'] as const) {
    describe(`in the ${era} era`, () => {
      let client: Client;

      beforeEach(async () => {
        client = await connect(createServer(), { era });
      });

      afterEach(async () => {
        await client.close();
      });

      it('lists plan\'s arguments from its DTO: city required, days and style optional', async () => {
        const { prompts } = await client.listPrompts();
        expect(prompts.map((p) => p.name)).to.deep.equal(['plan', 'smallTalk', 'withGuide', 'route']);
        // The v1 SDK client drops an argument's title (the wire has it: see below).
        expect(prompts[0].arguments).to.deep.equal([
          { name: 'city', description: 'Where to go', required: true },
          { name: 'days', description: 'How many days', required: false },
          { name: 'style', description: 'Travel style', required: false },
        ]);
      });

      it('converts the string arguments to the DTO\'s types, with its defaults, into one user message', async () => {
        const result = await client.getPrompt({ name: 'plan', arguments: { city: 'Oslo', days: '5' } });
        expect(result).to.deep.include({ description: 'Plan a trip', messages: [{ role: 'user', content: { type: 'text', text: 'Plan 5 days in Oslo.' } }] });
        const defaulted = await client.getPrompt({ name: 'plan', arguments: { city: 'Porto', style: 'comfort' } });
        expect(defaulted.messages[0].content).to.deep.equal({ type: 'text', text: 'Plan 3 days in Porto, comfort style.' });
      });

      it('refuses arguments the DTO refuses with -32602, naming them', async () => {
        const failure = await failureOf(client.getPrompt({ name: 'plan', arguments: { city: 'Oslo', days: '90', style: 'cheap' } }));
        expect(failure.code).to.equal(-32602);
        expect(failure.message).to.contain('days').and.to.contain('style');
        expect((await failureOf(client.getPrompt({ name: 'plan', arguments: {} }))).message).to.contain('city');
      });

      it('completes city from its list, ignoring case, and style from the method, given the city', async () => {
        const city = await client.complete({ ref: { type: 'ref/prompt', name: 'plan' }, argument: { name: 'city', value: 'p' } });
        expect(city.completion.values).to.deep.equal(['Paris', 'Prague', 'Porto']);
        const style = await client.complete({ ref: { type: 'ref/prompt', name: 'plan' }, argument: { name: 'style', value: '' }, context: { arguments: { city: 'Oslo' } } });
        expect(style.completion.values).to.deep.equal(['comfort', 'luxury']);
      });

      it('returns a conversation, and an embedded resource, as written', async () => {
        const talk = await client.getPrompt({ name: 'smallTalk' });
        expect(talk.messages.map((m) => [m.role, m.content.type === 'text' ? m.content.text : m.content.type])).to.deep.equal([
          ['user', 'Hi! Where should I travel?'], ['assistant', 'Where have you been so far?'],
        ]);
        const guide = await client.getPrompt({ name: 'withGuide' });
        expect(guide.messages[0]).to.deep.equal({ role: 'user', content: { type: 'resource', resource: { uri: 'guide://paris', mimeType: 'text/plain', text: 'Paris: museums, cafés.' } } });
      });

      it('answers a ToolError with -32602 and its message, and an unknown prompt with -32602', async () => {
        const refused = await failureOf(client.getPrompt({ name: 'route', arguments: { from: 'Oslo', to: 'Oslo' } }));
        expect(refused.code).to.equal(-32602);
        expect(refused.message).to.contain('Pick two different cities');
        const unknown = await failureOf(client.getPrompt({ name: 'nowhere' }));
        expect(unknown.code).to.equal(-32602);
        expect(unknown.message).to.contain('Unknown prompt: nowhere');
      });
    });
  }
});
