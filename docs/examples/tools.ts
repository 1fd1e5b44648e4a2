// Tools and DTOs: a DTO with constraints, an injected service, progress, a tool error, structured content.
// Included in docs/guide/tools.md; run by spec/docs/examples.spec.ts.
import 'reflect-metadata';
// #region dto
import { IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { Field } from 'phantom-mcp';

export class ForecastArgs {
  @Field({ description: 'City name' })
  @IsString()
  city!: string;

  @Field({ description: 'Days ahead' })
  @IsOptional() @IsInt() @Min(1) @Max(14)
  days = 3;
}
// #endregion dto

// #region service
import { injectable } from 'tsyringe';

/** One day of a forecast. */
export interface Day {
  readonly high: number;
}

/** Where forecasts come from: a class, so it is its own injection token. */
@injectable()
export class WeatherApi {
  async forecast(city: string, days: number): Promise<{ city: string; days: Day[] } | undefined> {
    if (city !== 'Oslo') return undefined;
    return { city, days: Array.from({ length: days }, (_, i) => ({ high: 18 + i })) };
  }
}
// #endregion service

// #region tool
import { Context, PhantomServer, Tool, ToolError } from 'phantom-mcp';

@injectable()
export class WeatherTools {
  constructor(private readonly api: WeatherApi) {}

  @Tool({ description: 'Forecast for a city', readOnly: true })
  async forecast(args: ForecastArgs, ctx: Context) {
    await ctx.progress(1, 2);
    const forecast = await this.api.forecast(args.city, args.days);
    if (!forecast) throw new ToolError(`No forecast for ${args.city}; check the spelling`);
    return forecast; // an object: structuredContent, and its JSON as text
  }
}

export function createServer(): PhantomServer {
  return new PhantomServer({ name: 'weather', version: '1.0.0', providers: [WeatherTools] });
}
// #endregion tool
