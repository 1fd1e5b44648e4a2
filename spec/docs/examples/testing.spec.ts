import 'reflect-metadata';
import { expect } from 'chai';
import { PhantomServer } from '../../../lib';
import { connect } from '../../../lib/testing';
import { reportsProgress, validatedInProcess } from '../../../docs/examples/testing';
import { createServer as weatherServer, WeatherApi } from '../../../docs/examples/tools';

// docs/guide/testing.md beyond what spec/docs/examples.spec.ts runs: testContext, server.handle,
// and what the page says of overrides.
describe('docs/examples/testing.ts (the testing guide, the rest)', () => {
  it('reportsProgress passes', async () => {
    await reportsProgress();
  });

  it('validatedInProcess passes', async () => {
    await validatedInProcess();
  });

  describe('overrides', () => {
    it('are refused once the server has served a request (override_too_late)', async () => {
      const server = weatherServer();
      const client = await connect(server);
      await client.callTool({ name: 'forecast', arguments: { city: 'Oslo' } }); // builds the providers
      expect(() => server.override(WeatherApi, new WeatherApi())).to.throw().with.property('code', 'override_too_late');
      await client.close();
    });

    it('are refused on a server built with resolve (override_with_resolve)', () => {
      const server = new PhantomServer({ name: 'weather', version: '1.0.0', providers: [], resolve: (cls) => new cls() });
      expect(() => server.override(WeatherApi, new WeatherApi())).to.throw().with.property('code', 'override_with_resolve');
    });
  });
});
