import 'reflect-metadata';
import { IsString } from 'class-validator';
import { container, inject, injectable } from 'tsyringe';
import { Context, Elicit, Field, PhantomServer, Prompt, Resource, Tool, ToolError, userText } from '../../lib';

/** The service a test replaces with a fake. */
@injectable()
export class WeatherApi {
  async celsius(city: string): Promise<number | undefined> {
    return city === 'Oslo' ? 4 : undefined;
  }
}

export const GREETING = Symbol('greeting');

export class CityArgs {
  @Field({ description: 'City' }) @IsString() city!: string;
}

@Elicit({ message: 'Which city?' })
export class CityForm {
  @Field({ title: 'City' }) @IsString() city!: string;
}

/** Tools that use every way back to the client, a service and the principal. */
@injectable()
export class WeatherTools {
  constructor(private readonly api: WeatherApi, @inject(GREETING) private readonly greeting: string) {}

  @Tool({ description: 'Temperature of a city' })
  async temperature(args: CityArgs, ctx: Context) {
    await ctx.progress(1, 2, 'asking');
    await ctx.log.info({ city: args.city });
    const celsius = await this.api.celsius(args.city);
    if (celsius === undefined) throw new ToolError(`No weather for ${args.city}`);
    await ctx.progress(2, 2);
    return { city: args.city, celsius };
  }

  @Tool({ description: 'Asks for a city, then greets it' })
  async ask(_: unknown, ctx: Context) {
    const answer = await ctx.elicit(CityForm);
    return answer.action === 'accept' ? `${this.greeting} ${answer.content.city}` : `no city (${answer.action})`;
  }

  @Tool({ description: 'Asks for a city, the model and the roots at once' })
  async everything(_: unknown, ctx: Context) {
    const [city, poem, roots] = await Promise.all([ctx.elicit(CityForm), ctx.sample({ messages: [], maxTokens: 10 }), ctx.listRoots()]);
    const text = (poem.content as { text: string }).text;
    return `${city.action === 'accept' ? city.content.city : '-'} | ${text} | ${roots.map((root) => root.uri).join(',')}`;
  }

  @Tool({ description: 'Asks one question per round, for as long as the answers come' })
  async endless(_: unknown, ctx: Context) {
    for (let round = 0; ; round += 1) {
      const answer = await ctx.elicit(CityForm, { key: `round-${round}` });
      if (answer.action !== 'accept') return `stopped at round ${round}`;
    }
  }

  @Tool({ description: 'Asks for two cities, one after the other (two rounds in the stateless era)' })
  async route(_: unknown, ctx: Context) {
    const from = await ctx.elicit(CityForm, { message: 'From?' });
    const to = await ctx.elicit(CityForm, { message: 'To?' });
    return from.action === 'accept' && to.action === 'accept' ? `${from.content.city} -> ${to.content.city}` : 'no route';
  }

  @Tool({ description: 'Who is calling' })
  whoami(_: unknown, ctx: Context) {
    return ctx.auth ? `token of ${ctx.auth.subject}` : `principal ${JSON.stringify(ctx.principal ?? null)}`;
  }

  @Tool({ description: 'Resets the stations', scopes: ['weather:admin'] })
  reset() {
    return 'reset';
  }

  @Tool({ description: 'The era and version of the request' })
  era(_: unknown, ctx: Context) {
    return `${ctx.era} ${ctx.protocolVersion} ${ctx.clientInfo?.name}`;
  }

  @Prompt({ description: 'A trip, after asking for the city' })
  async trip(_: unknown, ctx: Context) {
    const answer = await ctx.elicit(CityForm);
    return [userText(`Plan a trip to ${answer.action === 'accept' ? answer.content.city : 'nowhere'}`)];
  }

  @Resource('weather://asked', { description: 'The city the user names' })
  async asked(_: unknown, ctx: Context) {
    const answer = await ctx.elicit(CityForm);
    return answer.action === 'accept' ? answer.content.city : 'none';
  }
}

/** A new server per test: overrides reach only a server that has built no provider yet. */
export function weatherServer(): PhantomServer {
  const services = container.createChildContainer();
  services.registerInstance(GREETING, 'Hello');
  return new PhantomServer({ name: 'weather', version: '1.0.0', providers: [WeatherTools], container: services });
}
