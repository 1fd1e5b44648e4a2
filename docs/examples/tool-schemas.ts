// Tools beyond the basics: a declared output, a hand-written input schema, an enum, a custom
// validator taught to the schema compiler. Included in docs/guide/tools.md; run by
// spec/docs/examples/tool-schemas.spec.ts.
import 'reflect-metadata';
// #region output
import { IsEnum, IsInt, IsString, Max, Min } from 'class-validator';
import { Field, PhantomServer, Tool } from 'phantom-mcp';

export class Conditions {
  @Field({ description: 'City name' }) @IsString() city!: string;
  @Field({ description: 'Highest temperature, in °C' })
  @IsInt()
  high!: number;
}

export class CityArgs {
  @Field({ description: 'City name' }) @IsString() city!: string;
}

export class ConditionTools {
  // advertised as outputSchema; every result is checked against it
  @Tool({ description: 'Today in a city', output: Conditions })
  today({ city }: CityArgs): Conditions {
    return { city, high: city === 'Oslo' ? 18 : 24 };
  }
}
// #endregion output

// #region input-schema
export class RawTools {
  @Tool({
    description: 'Adds two numbers',
    inputSchema: {
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
      required: ['a', 'b'],
      additionalProperties: false,
    },
  })
  add(args: { a: number; b: number }): string {
    return String(args.a + args.b); // the arguments as sent: a plain object
  }
}
// #endregion input-schema

// #region enum
export enum Tone { Formal = 'formal', Casual = 'casual' }

export class GreetingArgs {
  @Field({ description: 'How to greet' }) @IsEnum(Tone) tone!: Tone;
  @Field({ description: 'How many times' })
  @IsInt() @Min(1) @Max(3)
  times = 1;
}

export class GreetingTools {
  @Tool({ description: 'A greeting in a tone', readOnly: true })
  greet({ tone, times }: GreetingArgs): string {
    const once = tone === Tone.Formal ? 'Good day. ' : 'Hi! ';
    return once.repeat(times).trim();
  }
}
// #endregion enum

// #region converter
import { ValidateBy } from 'class-validator';
import { registerSchemaConverter } from 'phantom-mcp';

const SLUG = /^[a-z0-9-]+$/;

/** A validator of your own: class-validator enforces it on every call. */
export const IsSlug = () => ValidateBy({
  name: 'isSlug',
  validator: {
    validate: (value) => typeof value === 'string' && SLUG.test(value),
    // the line the model reads when a value fails:
    defaultMessage: () => 'must be a slug: a-z, 0-9 and -',
  },
});

// What it means in JSON Schema, so the model is told before it calls:
registerSchemaConverter('isSlug', (_rule, schema) => {
  schema.type = 'string';
  schema.pattern = SLUG.source;
});

export class SlugArgs {
  @Field({ description: 'A page slug' }) @IsSlug() slug!: string;
}

export class PageTools {
  @Tool({ description: 'Opens a page by slug', readOnly: true })
  open({ slug }: SlugArgs): string {
    return `/pages/${slug}`;
  }
}
// #endregion converter

export function createServer(): PhantomServer {
  return new PhantomServer({
    name: 'schemas',
    version: '1.0.0',
    providers: [ConditionTools, RawTools, GreetingTools, PageTools],
  });
}
