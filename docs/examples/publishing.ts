// Publishing: a server that declares what the registry, bundles and clients need from it (its
// description and the environment it reads). Included in docs/guide/publishing.md and
// docs/guide/cli.md; the CLI is run on it by spec/docs/examples/publishing.spec.ts.
// #region server
import 'reflect-metadata';
import { IsString, MaxLength } from 'class-validator';
import { Field, PhantomServer, Prompt, Tool, ToolError, userText, type Context } from 'phantom-mcp';

export class CityArgs {
  @Field({ description: 'The city to forecast', examples: ['Oslo'] })
  @IsString() @MaxLength(100)
  city!: string;
}

export class WeatherTools {
  @Tool({ description: 'Tomorrow\'s forecast for a city', readOnly: true })
  async forecast(args: CityArgs, ctx: Context) {
    if (!process.env.WEATHER_API_KEY) throw new ToolError('WEATHER_API_KEY is not set');
    await ctx.progress(1, 2, 'asking the forecast API');
    const units = process.env.WEATHER_UNITS ?? 'metric';
    return { city: args.city, high: units === 'metric' ? 21 : 70, units };
  }

  @Prompt({ description: 'Asks for a weather briefing' })
  briefing(args: CityArgs) {
    return userText(`Brief me on the weather in ${args.city}.`);
  }
}

export const server = new PhantomServer({
  name: 'weather',
  version: '1.2.0',
  providers: [WeatherTools],
  description: 'Forecasts for any city, day by day', // at most 100 characters
  environment: [
    { name: 'WEATHER_API_KEY', description: 'Key for the forecast API', required: true, secret: true },
    { name: 'WEATHER_UNITS', description: 'Units of the forecasts', default: 'metric', choices: ['metric', 'imperial'] },
  ],
});
// #endregion server

// #region card
export function listenWithCard(port = 3000) {
  return server.listen({
    port,
    serverCard: { name: 'io.github.acme/weather', url: 'https://weather.acme.example/mcp' },
  });
}
// #endregion card
