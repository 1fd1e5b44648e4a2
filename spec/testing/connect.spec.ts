import 'reflect-metadata';
import { expect } from 'chai';
import { connect, structuredOf, textOf, expectToolError } from 'phantom-mcp/testing';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { PhantomServer, type AuthInfo, type StreamConnection } from '../../lib';
import { GREETING, WeatherApi, WeatherTools, weatherServer } from './weather.fixture';

const ADA: AuthInfo = { subject: 'ada', issuer: 'https://id.example', audience: ['https://weather.example'], scopes: ['weather:admin'], claims: {} };

describe('connect (phantom-mcp/testing)', () => {
  let client: Client | undefined;
  afterEach(async () => { await client?.close(); client = undefined; });

  context('in the session era (the default)', () => {
    it('gives the official client, initialised and connected in-process', async () => {
      client = await connect(weatherServer());
      expect(client.getServerVersion()).to.include({ name: 'weather', version: '1.0.0' });
      const result = await client.callTool({ name: 'temperature', arguments: { city: 'Oslo' } });
      expect(structuredOf(result)).to.deep.equal({ city: 'Oslo', celsius: 4 });
      expect((await client.callTool({ name: 'era', arguments: {} })).content).to.deep.equal([{ type: 'text', text: 'session 2025-11-25 phantom-mcp-testing' }]);
    });

    it('frees the server side when the client closes', async () => {
      const server = weatherServer();
      const connections: StreamConnection[] = [];
      const serve = server.connect.bind(server);
      server.connect = async (...args) => { const connection = await serve(...args); connections.push(connection); return connection; };
      const closing = await connect(server);
      await closing.close();
      await connections[0]!.done;
    });

    it('answers elicitation with a fixed value, and declares the capability', async () => {
      client = await connect(weatherServer(), { elicit: { action: 'accept', content: { city: 'Bergen' } } });
      expect(textOf(await client.callTool({ name: 'ask', arguments: {} }))).to.equal('Hello Bergen');
    });

    it('answers elicitation with a function of the request params', async () => {
      const asked: string[] = [];
      client = await connect(weatherServer(), { elicit: (params) => { asked.push(params.message); return { action: 'decline' }; } });
      expect(textOf(await client.callTool({ name: 'ask', arguments: {} }))).to.equal('no city (decline)');
      expect(asked).to.deep.equal(['Which city?']);
    });

    it('answers sampling and roots, a list of roots standing for the result', async () => {
      client = await connect(weatherServer(), {
        elicit: { action: 'accept', content: { city: 'Tromsø' } },
        sample: async () => ({ role: 'assistant', model: 'fake', content: { type: 'text', text: 'cold' } }),
        roots: [{ uri: 'file:///repo' }],
      });
      expect(textOf(await client.callTool({ name: 'everything', arguments: {} }))).to.equal('Tromsø | cold | file:///repo');
    });

    it('declares no capability it has no answer for', async () => {
      client = await connect(weatherServer());
      expect(textOf(await client.callTool({ name: 'ask', arguments: {} }))).to.equal('no city (unsupported)');
    });

    it('lets written capabilities replace those the answers declare', async () => {
      client = await connect(weatherServer(), { elicit: { action: 'accept', content: { city: 'Oslo' } }, capabilities: { elicitation: { url: {} } } });
      expect(textOf(await client.callTool({ name: 'ask', arguments: {} }))).to.equal('no city (unsupported)');
    });

    it('refuses an era it does not know', async () => {
      let error: unknown;
      try { await connect(weatherServer(), { era: 'future' as 'session' }); } catch (caught) { error = caught; }
      expect(error).to.be.instanceOf(TypeError).with.property('message').that.matches(/era must be 'session' or 'stateless'/);
    });
  });

  describe('principal', () => {
    it('reaches the handler as what the authentication hook attached', async () => {
      client = await connect(weatherServer(), { principal: { user: 'ada' } });
      expect(textOf(await client.callTool({ name: 'whoami', arguments: {} }))).to.equal('principal {"user":"ada"}');
    });

    it('is ctx.auth when it is an AuthInfo, and its scopes pass the scope check', async () => {
      client = await connect(weatherServer(), { principal: ADA });
      expect(textOf(await client.callTool({ name: 'whoami', arguments: {} }))).to.equal('token of ada');
      expect(textOf(await client.callTool({ name: 'reset', arguments: {} }))).to.equal('reset');
    });

    it('is absent by default, so a scoped tool is refused', async () => {
      client = await connect(weatherServer());
      let error: unknown;
      try { await client.callTool({ name: 'reset', arguments: {} }); } catch (caught) { error = caught; }
      expect(error).to.have.property('code', -32003);
    });
  });

  describe('overrides', () => {
    it('replace a service the providers inject, by class', async () => {
      const fake = { celsius: async (city: string) => city.length };
      client = await connect(weatherServer(), { overrides: [[WeatherApi, fake]] });
      expect(structuredOf(await client.callTool({ name: 'temperature', arguments: { city: 'Atlantis' } }))).to.deep.equal({ city: 'Atlantis', celsius: 8 });
    });

    it('replace a service registered under a token', async () => {
      client = await connect(weatherServer(), { overrides: [[GREETING, 'Hei']], elicit: { action: 'accept', content: { city: 'Oslo' } } });
      expect(textOf(await client.callTool({ name: 'ask', arguments: {} }))).to.equal('Hei Oslo');
    });

    it('leave the real service to a server connected without them', async () => {
      client = await connect(weatherServer());
      expectToolError(await client.callTool({ name: 'temperature', arguments: { city: 'Atlantis' } }), /No weather for Atlantis/);
    });

    context('when the server has served a request already', () => {
      it('throws, saying to make a new server per test', async () => {
        const server = weatherServer();
        client = await connect(server);
        await client.callTool({ name: 'temperature', arguments: { city: 'Oslo' } });
        let error: unknown;
        try { await connect(server, { overrides: [[WeatherApi, {}]] }); } catch (caught) { error = caught; }
        expect(error).to.have.property('code', 'override_too_late');
        expect((error as Error).message).to.match(/WeatherApi.*built its providers already.*new server per test/);
      });
    });

    context('when the server takes its instances from the resolve option', () => {
      it('throws, saying where to replace the service', async () => {
        const tools = new WeatherTools(new WeatherApi(), 'Hello');
        const server = new PhantomServer({ name: 'weather', version: '1.0.0', providers: [WeatherTools], resolve: () => tools });
        let error: unknown;
        try { await connect(server, { overrides: [[WeatherApi, {}]] }); } catch (caught) { error = caught; }
        expect(error).to.have.property('code', 'override_with_resolve');
      });
    });
  });
});
