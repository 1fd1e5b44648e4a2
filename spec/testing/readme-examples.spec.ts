import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect } from 'chai';
import { IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { injectable } from 'tsyringe';
import { Context, Field, PhantomServer, Resource, Tool, ToolError } from '../../lib';
import { connect, expectToolError, structuredOf, testContext, textOf } from 'phantom-mcp/testing';

// The README's "What you write" and its spec, as written there: the example must hold. What the
// README's "Testing your server" showed before it moved to the docs site is run by
// spec/docs/examples.spec.ts and spec/docs/examples/testing.spec.ts (docs/examples/testing.ts).

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

/** The lines of this spec's copy that must read the same in the README's example. */
const SHARED_LINES = [
  "@Field({ description: 'City name' }) @IsString() city!: string;",
  "@Field({ description: 'Days ahead' }) @IsOptional() @IsInt() @Min(1) @Max(14) days = 3;",
  "@Tool({ description: 'Forecast for a city', readOnly: true })",
  'async forecast(args: ForecastArgs, ctx: Context) {',
  'await ctx.progress(1, 2);',
  'const forecast = await this.api.forecast(args.city, args.days);',
  "if (!forecast) throw new ToolError(`No forecast for ${args.city}; check the spelling`);",
  "@Resource('weather://stations/{id}', { description: 'A station', mimeType: 'application/json' })",
  'station({ id }: { id: string }) { return this.api.station(id); }',
  "const server = new PhantomServer({ name: 'weather', version: '1.0.0', providers: [WeatherTools] });",
  "const client = await connect(server, { overrides: [[WeatherApi, { forecast: async () => undefined }]] });",
  "expectToolError(await client.callTool({ name: 'forecast', arguments: { city: 'Atlantis' } }), /No forecast for Atlantis/);",
];

describe('the README\'s "What you write"', () => {
  let server: PhantomServer;
  beforeEach(() => { server = new PhantomServer({ name: 'weather', version: '1.0.0', providers: [WeatherTools] }); });

  it('is the example this spec runs', () => {
    const readme = readFileSync(resolve(__dirname, '../../../README.md'), 'utf8');
    const missing = SHARED_LINES.filter((line) => !readme.includes(line));
    expect(missing, `lines of this spec's copy no longer in the README:\n${missing.join('\n')}`).to.deep.equal([]);
  });

  it('tells the model when there is no forecast (the README\'s spec)', async () => {
    const client = await connect(server, { overrides: [[WeatherApi, { forecast: async () => undefined }]] });
    expectToolError(await client.callTool({ name: 'forecast', arguments: { city: 'Atlantis' } }), /No forecast for Atlantis/);
    await client.close();
  });

  it('returns the forecast object as structured content', async () => {
    const client = await connect(server, { overrides: [[WeatherApi, { forecast: async () => ({ city: 'Oslo', days: [{ high: 21 }] }) }]] });
    expect(structuredOf(await client.callTool({ name: 'forecast', arguments: { city: 'Oslo' } }))).to.deep.equal({ city: 'Oslo', days: [{ high: 21 }] });
    await client.close();
  });

  it('validates the arguments against the DTO', async () => {
    const client = await connect(server, { overrides: [[WeatherApi, { forecast: async () => ({}) }]] });
    expectToolError(await client.callTool({ name: 'forecast', arguments: { city: 'Oslo', days: 15 } }), /days/);
    await client.close();
  });

  it('reads a station through the template', async () => {
    const client = await connect(server, { overrides: [[WeatherApi, { station: async (id: string) => ({ id, name: 'Blindern' }) }]] });
    const read = await client.readResource({ uri: 'weather://stations/18700' });
    expect(JSON.parse(textOf(read))).to.deep.equal({ id: '18700', name: 'Blindern' });
    expect(read.contents[0].mimeType).to.equal('application/json');
    await client.close();
  });

  it('reports its progress', async () => {
    const { ctx, progress } = testContext();
    const tools = new WeatherTools({ forecast: async () => ({ city: 'Oslo', days: [] }) } as unknown as WeatherApi);
    await tools.forecast(Object.assign(new ForecastArgs(), { city: 'Oslo' }), ctx);
    expect(progress).to.deep.equal([{ progress: 1, total: 2 }]);
  });
});
