import 'reflect-metadata';
import { expect } from 'chai';
import { IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { injectable } from 'tsyringe';
import { Context, Elicit, Field, PhantomServer, Resource, Tool, ToolError } from '../../lib';
import { connect, expectToolError, structuredOf, testContext, textOf } from 'phantom-mcp/testing';

// The README's "What you write" and "Testing your server", as written there: the examples must hold.

@injectable()
class WeatherApi {
  async forecast(_city: string, _days: number): Promise<object | undefined> { throw new Error('the real API is not called in a test'); }
  async station(_id: string): Promise<object | undefined> { return undefined; }
}

class ForecastArgs {
  @Field({ description: 'City name' }) @IsString() city!: string;
  @Field({ description: 'Days ahead' }) @IsOptional() @IsInt() @Min(1) @Max(14) days = 3;
}

@injectable()
class WeatherTools {
  constructor(private readonly api: WeatherApi) {}

  @Tool({ description: 'Forecast for a city', readOnly: true })
  async forecast(args: ForecastArgs, ctx: Context) {
    await ctx.progress(1, 2);
    const forecast = await this.api.forecast(args.city, args.days);
    if (!forecast) throw new ToolError(`No forecast for ${args.city}; check the spelling`);
    return forecast;
  }

  @Resource('weather://stations/{id}', { description: 'A station', mimeType: 'application/json' })
  station({ id }: { id: string }) { return this.api.station(id); }
}

class GreetArgs {
  @Field({ description: 'Name' }) @IsString() name!: string;
}

class Greeter {
  @Tool({ description: 'Greets' })
  greet(args: GreetArgs) { return `Hello ${args.name}`; }
}

@Elicit({ message: 'Where to?' })
class Destination {
  @Field({ title: 'City' }) @IsString() city!: string;
}

class Bookings {
  @Tool({ description: 'Books the city the user names' })
  async book(_: unknown, ctx: Context) {
    const answer = await ctx.elicit(Destination);
    return answer.action === 'accept' ? `Booked ${answer.content.city}` : 'Not booked';
  }
}

describe('the README\'s "Testing your server"', () => {
  describe('Greeter', () => {
    it('greets by name', async () => {
      const client = await connect(new PhantomServer({ name: 'greeter', version: '1.0.0', providers: [Greeter] }));
      expect(textOf(await client.callTool({ name: 'greet', arguments: { name: 'Ada' } }))).to.equal('Hello Ada');
      await client.close();
    });
  });

  describe('WeatherTools', () => {
    let server: PhantomServer;
    beforeEach(() => { server = new PhantomServer({ name: 'weather', version: '1.0.0', providers: [WeatherTools] }); });

    it('returns the forecast the API gives', async () => {
      const fakeApi = { forecast: async () => ({ city: 'Oslo', days: [{ high: 21 }] }) };
      const client = await connect(server, { overrides: [[WeatherApi, fakeApi]] });
      const result = await client.callTool({ name: 'forecast', arguments: { city: 'Oslo' } });
      expect(structuredOf(result)).to.deep.equal({ city: 'Oslo', days: [{ high: 21 }] });
      await client.close();
    });

    it('tells the model when there is no forecast', async () => {
      const client = await connect(server, { overrides: [[WeatherApi, { forecast: async () => undefined }]] });
      expectToolError(await client.callTool({ name: 'forecast', arguments: { city: 'Atlantis' } }), /No forecast for Atlantis/);
      await client.close();
    });

    it('reports its progress', async () => {
      const { ctx, progress, logs } = testContext();
      const tools = new WeatherTools({ forecast: async () => ({ city: 'Oslo', days: [] }) } as unknown as WeatherApi);
      await tools.forecast(Object.assign(new ForecastArgs(), { city: 'Oslo' }), ctx);
      expect(progress).to.deep.equal([{ progress: 1, total: 2 }]);
      expect(logs).to.deep.equal([]);
    });
  });

  describe('Bookings', () => {
    const server = new PhantomServer({ name: 'bookings', version: '1.0.0', providers: [Bookings] });

    for (const era of ['session', 'stateless'] as const) {
      it(`books the city the user names (${era} era)`, async () => {
        const client = await connect(server, { era, elicit: { action: 'accept', content: { city: 'Lisbon' } } });
        expect(textOf(await client.callTool({ name: 'book', arguments: {} }))).to.equal('Booked Lisbon');
        await client.close();
      });
    }
  });
});
