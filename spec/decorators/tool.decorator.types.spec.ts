import 'reflect-metadata';
import { expect } from 'chai';
import { IsNumber, IsString } from 'class-validator';
import { Field, PhantomServer, Tool, ToolResult, type Context } from '../../lib';

/**
 * A type-level spec: `tsc` compiles this file as part of `npm test`, and each `@ts-expect-error`
 * fails the build if the line under it stops being a compile error. The `it`s only show that the
 * methods that do compile still make ordinary tools.
 */
class Weather {
  @IsNumber() temperature!: number;
  @IsString() unit!: string;
}

class CityArgs {
  @Field({ description: 'City' }) @IsString() city!: string;
}

class Typed {
  @Tool({ description: 'Returns the DTO', output: Weather })
  plain(): Weather { return { temperature: 21, unit: 'C' }; }

  @Tool({ description: 'Returns it asynchronously, with arguments and a context', output: Weather })
  async later(args: CityArgs, _ctx: Context) { return { temperature: args.city.length, unit: 'C' }; }

  @Tool({ description: 'Returns an error result', output: Weather })
  failing() { return ToolResult.error('No such city'); }

  @Tool({ description: 'Returns either', output: Weather })
  either(args: CityArgs) { return args.city ? new Weather() : ToolResult.error('No city'); }
}

class Mistyped {
  // @ts-expect-error a property of the wrong type
  @Tool({ description: 'x', output: Weather })
  wrongType() { return { temperature: 'warm', unit: 'C' }; }

  // @ts-expect-error a required property missing
  @Tool({ description: 'x', output: Weather })
  missing() { return { temperature: 21 }; }

  // @ts-expect-error no structured content at all
  @Tool({ description: 'x', output: Weather })
  text() { return 'sunny'; }

  // @ts-expect-error a promise of something else
  @Tool({ description: 'x', output: Weather })
  async later() { return { unit: 'C' }; }

  // @ts-expect-error nothing
  @Tool({ description: 'x', output: Weather })
  nothing() {}
}

async function toolCount(server: PhantomServer): Promise<number> {
  const outcome = await server.handle('tools/list');
  return 'result' in outcome ? (outcome.result.tools as unknown[]).length : -1;
}

describe('Tool', () => {
  context('when given output: Dto', () => {
    it('accepts methods whose return type fits the DTO or is a tool result', async () => {
      const server = new PhantomServer({ name: 't', version: '1', providers: [Typed] });
      expect(await toolCount(server)).to.equal(4);
    });

    it('still records a method that was forced past the type check', async () => {
      const server = new PhantomServer({ name: 't', version: '1', providers: [Mistyped] });
      expect(await toolCount(server)).to.equal(5);
    });
  });
});
