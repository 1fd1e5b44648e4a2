// The two protocol eras: a handler that runs again in the stateless era, asking one question at a
// time or both at once, and a caching hint. Included in docs/concepts/eras.md; run by
// spec/docs/examples/eras.spec.ts.
import 'reflect-metadata';
// #region rounds
import { IsInt, IsString, Min } from 'class-validator';
import { Context, Elicit, Field, Tool } from 'phantom-mcp';

@Elicit({ message: 'Which city?' })
export class City {
  @Field({ title: 'City' }) @IsString() city!: string;
}

@Elicit({ message: 'How many nights?' })
export class Nights {
  @Field({ title: 'Nights' }) @IsInt() @Min(1) nights!: number;
}

export class Trips {
  /** How many times a handler started: in the stateless era, once per round. */
  started = 0;

  @Tool({ name: 'one_by_one', description: 'Asks for the city, then for the nights' })
  async oneByOne(_args: object, ctx: Context) {
    this.started += 1; // anything done up here is done again on every round
    const city = await ctx.elicit(City);
    if (city.action !== 'accept') return 'No trip.';
    const nights = await ctx.elicit(Nights);
    if (nights.action !== 'accept') return 'No trip.';
    return `${city.content.city}, ${nights.content.nights} nights`;
  }

  @Tool({ name: 'together', description: 'Asks for the city and the nights at once' })
  async together(_args: object, ctx: Context) {
    this.started += 1;
    const [city, nights] = await Promise.all([ctx.elicit(City), ctx.elicit(Nights)]); // one round
    if (city.action !== 'accept' || nights.action !== 'accept') return 'No trip.';
    return `${city.content.city}, ${nights.content.nights} nights`;
  }
}
// #endregion rounds

// #region cache
import { PhantomServer, Resource } from 'phantom-mcp';

export class Destinations {
  @Resource('trips://destinations', {
    description: 'Where trips go',
    mimeType: 'text/plain',
    cache: { ttlMs: 3_600_000, scope: 'public' }, // stateless era: the same for every caller, for an hour
  })
  destinations(): string {
    return 'Lisbon\nOslo\nKyoto';
  }
}

export function createServer(): PhantomServer {
  return new PhantomServer({
    name: 'trips', version: '1.0.0', providers: [Trips, Destinations],
    stateKey: process.env.MCP_STATE_KEY, // replicas without a shared store: the same key on each
    stateTtlMs: 10 * 60_000, // how long a requestState stays valid (the default)
  });
}
// #endregion cache
