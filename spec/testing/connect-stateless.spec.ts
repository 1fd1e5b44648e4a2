import 'reflect-metadata';
import { expect } from 'chai';
import { connect, DEFAULT_MAX_ROUNDS, structuredOf, textOf } from 'phantom-mcp/testing';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { WeatherApi, weatherServer } from './weather.fixture';

const OSLO = { action: 'accept', content: { city: 'Oslo' } } as const;

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try { await promise; } catch (error) { return error as Error; }
  throw new Error('expected a rejection');
}

describe('connect (phantom-mcp/testing), stateless era', () => {
  let client: Client | undefined;
  afterEach(async () => { await client?.close(); client = undefined; });

  it('sends each request with the revision\'s _meta, without a handshake', async () => {
    client = await connect(weatherServer(), { era: 'stateless' });
    expect(client.getServerVersion()).to.equal(undefined);
    expect(textOf(await client.callTool({ name: 'era', arguments: {} }))).to.equal('stateless 2026-07-28 phantom-mcp-testing');
    expect((await client.listTools()).tools.map((tool) => tool.name)).to.include('temperature');
  });

  it('keeps the _meta the client adds itself (progress tokens)', async () => {
    client = await connect(weatherServer(), { era: 'stateless' });
    const progress: number[] = [];
    const result = await client.callTool({ name: 'temperature', arguments: { city: 'Oslo' } }, undefined, { onprogress: (p) => progress.push(p.progress) });
    expect(structuredOf(result)).to.deep.equal({ city: 'Oslo', celsius: 4 });
    expect(progress).to.deep.equal([1, 2]);
  });

  describe('input_required rounds', () => {
    it('answers them with the elicit answer and returns the final result of callTool', async () => {
      client = await connect(weatherServer(), { era: 'stateless', elicit: OSLO });
      const result = await client.callTool({ name: 'ask', arguments: {} });
      expect(result).to.include({ resultType: 'complete' });
      expect(textOf(result)).to.equal('Hello Oslo');
    });

    it('answers several inputs of one round with elicit, sample and roots', async () => {
      const sampled: unknown[] = [];
      client = await connect(weatherServer(), {
        era: 'stateless',
        elicit: () => OSLO,
        sample: (params) => { sampled.push(params.maxTokens); return { role: 'assistant', model: 'fake', content: { type: 'text', text: 'mild' } }; },
        roots: { roots: [{ uri: 'file:///home' }] },
      });
      expect(textOf(await client.callTool({ name: 'everything', arguments: {} }))).to.equal('Oslo | mild | file:///home');
      expect(sampled).to.deep.equal([10]);
    });

    it('answers them for getPrompt and readResource too', async () => {
      client = await connect(weatherServer(), { era: 'stateless', elicit: OSLO });
      expect(textOf(await client.getPrompt({ name: 'trip' }))).to.equal('Plan a trip to Oslo');
      expect(textOf(await client.readResource({ uri: 'weather://asked' }))).to.equal('Oslo');
    });

    it('answers rounds that follow one another, sending back the requestState', async () => {
      const asked: string[] = [];
      const elicit = (params: { message: string }) => {
        asked.push(params.message);
        return { action: 'accept', content: { city: params.message === 'From?' ? 'Oslo' : 'Bergen' } } as const;
      };
      client = await connect(weatherServer(), { era: 'stateless', elicit });
      expect(textOf(await client.callTool({ name: 'route', arguments: {} }))).to.equal('Oslo -> Bergen');
      expect(asked).to.deep.equal(['From?', 'To?']);
    });

    it('gives up after maxRounds (default 10), saying so', async () => {
      client = await connect(weatherServer(), { era: 'stateless', elicit: OSLO });
      const error = await rejection(client.callTool({ name: 'endless', arguments: {} }));
      expect(error.message).to.match(new RegExp(`still asked for input after ${DEFAULT_MAX_ROUNDS} rounds`));
    });

    it('takes another bound through maxRounds', async () => {
      let answered = 0;
      client = await connect(weatherServer(), { era: 'stateless', elicit: () => { answered += 1; return OSLO; }, maxRounds: 2 });
      const error = await rejection(client.callTool({ name: 'endless', arguments: {} }));
      expect(error.message).to.match(/after 2 rounds/);
      expect(answered).to.equal(2);
    });

    it('fails the call, naming the option, when the server asks for what the test did not answer', async () => {
      client = await connect(weatherServer(), { era: 'stateless', capabilities: { elicitation: {} } });
      const error = await rejection(client.callTool({ name: 'ask', arguments: {} }));
      expect(error.message).to.match(/the test gave no `elicit` answer; pass \{ elicit: \.\.\. \}/);
    });

    it('declares no capability it has no answer for', async () => {
      client = await connect(weatherServer(), { era: 'stateless' });
      expect(textOf(await client.callTool({ name: 'ask', arguments: {} }))).to.equal('no city (unsupported)');
    });
  });

  it('carries the principal and the overrides, as in the session era', async () => {
    client = await connect(weatherServer(), { era: 'stateless', principal: { user: 'ada' }, overrides: [[WeatherApi, { celsius: async () => -3 }]] });
    expect(textOf(await client.callTool({ name: 'whoami', arguments: {} }))).to.equal('principal {"user":"ada"}');
    expect(structuredOf(await client.callTool({ name: 'temperature', arguments: { city: 'Oslo' } }))).to.deep.equal({ city: 'Oslo', celsius: -3 });
  });
});
