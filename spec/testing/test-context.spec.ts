import 'reflect-metadata';
import { expect } from 'chai';
import { testContext } from 'phantom-mcp/testing';
import { WeatherApi, WeatherTools } from './weather.fixture';

const tools = () => new WeatherTools(new WeatherApi(), 'Hello');

describe('testContext (phantom-mcp/testing)', () => {
  it('records progress and logs of a handler called directly', async () => {
    const { ctx, progress, logs } = testContext();
    expect(await tools().temperature({ city: 'Oslo' }, ctx)).to.deep.equal({ city: 'Oslo', celsius: 4 });
    expect(progress).to.deep.equal([{ progress: 1, total: 2, message: 'asking' }, { progress: 2, total: 2 }]);
    expect(logs).to.deep.equal([{ level: 'info', data: { city: 'Oslo' } }]);
  });

  it('records no progress without a progress token, as for a client that asked for none', async () => {
    const { ctx, progress } = testContext({ progressToken: null });
    await tools().temperature({ city: 'Oslo' }, ctx);
    expect(progress).to.deep.equal([]);
  });

  it('filters logs by the client\'s level', async () => {
    const { ctx, logs } = testContext({ logLevel: 'warning' });
    await tools().temperature({ city: 'Oslo' }, ctx);
    expect(logs).to.deep.equal([]);
  });

  it('records elicitations and answers them', async () => {
    const { ctx, elicitations } = testContext({ elicit: { action: 'accept', content: { city: 'Oslo' } } });
    expect(await tools().ask(undefined, ctx)).to.equal('Hello Oslo');
    expect(elicitations).to.have.length(1);
    expect(elicitations[0]).to.include({ message: 'Which city?' });
  });

  it('answers elicit unsupported when given no elicit answer', async () => {
    const { ctx, elicitations } = testContext();
    expect(await tools().ask(undefined, ctx)).to.equal('no city (unsupported)');
    expect(elicitations).to.deep.equal([]);
  });

  it('records samples and answers sampling and roots', async () => {
    const { ctx, samples } = testContext({
      elicit: () => ({ action: 'cancel' }),
      sample: { role: 'assistant', model: 'fake', content: { type: 'text', text: 'warm' } },
      roots: () => [{ uri: 'file:///a' }, { uri: 'file:///b' }],
    });
    expect(await tools().everything(undefined, ctx)).to.equal('- | warm | file:///a,file:///b');
    expect(samples).to.deep.equal([{ messages: [], maxTokens: 10 }]);
  });

  it('gives the principal, as ctx.auth when it is an AuthInfo', async () => {
    const auth = { subject: 'ada', issuer: 'https://id.example', audience: [], scopes: [], claims: {} };
    expect(tools().whoami(undefined, testContext({ principal: auth }).ctx)).to.equal('token of ada');
    expect(tools().whoami(undefined, testContext({ principal: 'ops' }).ctx)).to.equal('principal "ops"');
  });

  it('records resource updates and passes the signal', async () => {
    const controller = new AbortController();
    const { ctx, resourceUpdates } = testContext({ signal: controller.signal });
    await ctx.resourceUpdated('weather://asked');
    controller.abort();
    expect(resourceUpdates).to.deep.equal(['weather://asked']);
    expect(ctx.signal.aborted).to.equal(true);
  });
});
