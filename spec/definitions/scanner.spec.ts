import 'reflect-metadata';
import { expect } from 'chai';
import { Type } from 'class-transformer';
import { Allow, IsIn, IsOptional, IsString, ValidateNested } from 'class-validator';
import { DefinitionError, Elicit, Field, PhantomServer, Prompt, Resource, Tool, type Context } from '../../lib';
import { scan } from '../../lib/definitions/scanner';
import type { Constructor } from '../../lib/metadata/metadata-store';

const resolve = (cls: Constructor): object => new cls() as object;

function problemsOf(providers: Function[], forms: Function[] = []): string[] {
  try {
    scan({ providers: providers as never, forms: forms as never, resolve: resolve as never });
  } catch (error) {
    expect(error).to.be.instanceOf(DefinitionError);
    return [...(error as DefinitionError).problems];
  }
  return [];
}

describe('scan', () => {
  class CityArgs {
    @Field({ description: 'A city' }) @IsString() city!: string;
  }

  context('when the classes are well formed', () => {
    class Good {
      @Tool({ description: 'Forecast', readOnly: true, openWorld: false, title: 'Forecast', icons: [{ src: 'https://x/i.png' }], _meta: { a: 1 } })
      forecast(args: CityArgs, ctx: Context) { return [args, ctx]; }

      @Tool({ name: 'bare.tool-1', description: 'No arguments' })
      bare() { return 'ok'; }

      @Resource('x://fixed', { description: 'F', mimeType: 'text/plain', size: 3 })
      fixed() { return 'abc'; }

      @Resource('x://cities/{city}', { description: 'T' })
      byCity(params: CityArgs) { return params.city; }

      @Prompt({ description: 'P' })
      plan(args: CityArgs) { return args.city; }
    }

    it('compiles tools with defaults, annotations and schemas', () => {
      const { tools } = scan({ providers: [Good], resolve });
      expect(tools.map((t) => t.descriptor)).to.deep.equal([
        {
          name: 'forecast', title: 'Forecast', description: 'Forecast',
          inputSchema: tools[0].descriptor.inputSchema,
          annotations: { readOnlyHint: true, openWorldHint: false },
          icons: [{ src: 'https://x/i.png' }], _meta: { a: 1 },
        },
        { name: 'bare.tool-1', description: 'No arguments', inputSchema: { type: 'object' } },
      ]);
      expect(tools[0].descriptor.inputSchema).to.deep.include({ type: 'object', required: ['city'] });
      expect(tools[0].inputClass).to.equal(CityArgs);
    });

    it('tells fixed resources from templates', () => {
      const { resources } = scan({ providers: [Good], resolve });
      expect(resources.map((r) => r.kind)).to.deep.equal(['resource', 'template']);
      expect(resources[0].descriptor).to.deep.equal({ uri: 'x://fixed', name: 'fixed', description: 'F', mimeType: 'text/plain', size: 3 });
      expect(resources[1].descriptor).to.deep.equal({ uriTemplate: 'x://cities/{city}', name: 'byCity', description: 'T' });
    });

    it('derives prompt arguments from the argument class', () => {
      const { prompts } = scan({ providers: [Good], resolve });
      expect(prompts[0].descriptor).to.deep.equal({
        name: 'plan', description: 'P', arguments: [{ name: 'city', description: 'A city', required: true }],
      });
    });

    it('places the context where the signature puts it', async () => {
      const { tools } = scan({ providers: [Good], resolve });
      const ctx = {} as Context;
      expect(await tools[0].invoke({ city: 'Oslo' }, ctx)).to.deep.equal([{ city: 'Oslo' }, ctx]);
    });
  });

  context('when a class inherits decorated methods', () => {
    class Base {
      @Tool({ description: 'From the base' }) shared() { return 'base'; }
    }
    class Child extends Base {
      @Tool({ description: 'Own' }) own() { return 'own'; }
    }

    it('walks the prototype chain', () => {
      expect(scan({ providers: [Child], resolve }).tools.map((t) => t.name).sort()).to.deep.equal(['own', 'shared']);
    });
  });

  context('when definitions are wrong', () => {
    class Broken {
      @Tool({ name: 'has space', description: 'x' }) a() {}
      @Tool({ name: 'x'.repeat(65), description: 'x' }) b() {}
      @Tool() noDescription() {}
      @Tool({ name: 'dup', description: 'x' }) c() {}
      @Resource('x://items/{id}', { description: 'x' }) item(_params: CityArgs) {}
      @Resource('x://bad/{', { description: 'x' }) bad() {}
      @Resource('x://t/{city}', { list: 'missing', complete: { nope: ['a'], city: 'missingToo' } }) t() {}
      @Resource('x://fixed', { list: 'a' }) fixed() {}
      @Prompt({ complete: { zzz: ['a'] } }) p(_args: CityArgs) {}
      @Tool({ description: 'x' }) primitive(_value: string) {}
      @Resource('x://twice') twice() {}
    }
    class Other {
      @Tool({ name: 'dup', description: 'x' }) d() {}
      @Resource('x://twice') twice2() {}
    }
    class Misplaced {
      @Tool({ description: 'x' }) notAMethod = 1;
    }
    class NotAForm {
      @IsString() name!: string;
    }

    const problems = problemsOf([Broken, Other, Misplaced], [NotAForm]);
    const expectProblem = (pattern: RegExp) => expect(problems.some((p) => pattern.test(p)), `${pattern} in\n${problems.join('\n')}`).to.equal(true);

    it('reports every problem at once, labelled Class#member', () => {
      expect(problems.length).to.be.greaterThanOrEqual(12);
    });
    it('reports an invalid tool name', () => expectProblem(/^Broken#a: tool name "has space" must match/));
    it('reports a tool name over 64 characters', () => expectProblem(/^Broken#b: tool name "x{65}"/));
    it('reports a missing description', () => expectProblem(/^Broken#noDescription: tool "noDescription" needs a description/));
    it('reports duplicate tool names across classes', () => expectProblem(/duplicate tool name "dup": Broken#c, Other#d/));
    it('reports duplicate resource URIs', () => expectProblem(/duplicate resource URI "x:\/\/twice": Broken#twice, Other#twice2/));
    it('reports a template variable the handler cannot receive', () => expectProblem(/^Broken#item: template variable "id" is not a property of CityArgs/));
    it('reports a malformed template', () => expectProblem(/^Broken#bad: /));
    it('reports a missing lister method', () => expectProblem(/^Broken#t: lister method "missing" does not exist/));
    it('reports completion of an unknown variable', () => expectProblem(/^Broken#t: completion for "nope"/));
    it('reports a missing completion method', () => expectProblem(/^Broken#t: completion method "missingToo"/));
    it('reports a lister on a fixed resource', () => expectProblem(/^Broken#fixed: "list" applies to templates only/));
    it('reports completion of an unknown prompt argument', () => expectProblem(/^Broken#p: completion for "zzz"/));
    it('reports a primitive argument type', () => expectProblem(/^Broken#primitive: its first parameter must be an argument class/));
    it('reports a decorator on a non-method', () => expectProblem(/^Misplaced#notAMethod: @Tool belongs on a method/));
    it('reports an invalid form', () => expectProblem(/NotAForm/));
  });

  context('when several names are each served more than once', () => {
    class Three {
      @Tool({ name: 'first', description: 'x' }) a() {}
      @Tool({ name: 'second', description: 'x' }) b() {}
      @Tool({ name: 'second', description: 'x' }) c() {}
      @Tool({ name: 'first', description: 'x' }) d() {}
      @Tool({ name: 'first', description: 'x' }) e() {}
    }

    it('names each once, in the order the names first appear, with every label', () => {
      expect(problemsOf([Three])).to.deep.equal([
        'duplicate tool name "first": Three#a, Three#d, Three#e',
        'duplicate tool name "second": Three#b, Three#c',
      ]);
    });
  });

  context('when a form carries a nested object', () => {
    class Inner { @IsString() x!: string; }
    @Elicit({ message: 'm' })
    class NestedForm {
      @Field({ title: 'Inner' }) inner!: Inner;
    }

    it('is a start-up error', () => {
      expect(problemsOf([], [NestedForm]).join('\n')).to.match(/inner/);
    });
  });

  context('when the build dropped decorator metadata (tsx, esbuild)', () => {
    // Decorators applied by hand, as a transpiler without emitDecoratorMetadata applies them:
    // no design:paramtypes is written for any method.
    class Unbuilt {
      forecast(args: { city: string }) { return args.city; }
      plan(args: { city: string }) { return args.city; }
      station(params: { id: string }) { return params.id; }
      named(args: { city: string }) { return args.city; }
      bare() { return 'ok'; }
    }
    const decorate = (decorator: (target: object, key: string, descriptor: PropertyDescriptor) => void, method: keyof Unbuilt) =>
      decorator(Unbuilt.prototype, method, Object.getOwnPropertyDescriptor(Unbuilt.prototype, method)!);
    decorate(Tool({ description: 'Forecast' }), 'forecast');
    decorate(Prompt({ description: 'Plan' }), 'plan');
    decorate(Resource('x://stations/{id}', { description: 'A station' }), 'station');
    decorate(Tool({ description: 'Named', input: CityArgs }), 'named');
    decorate(Tool({ description: 'Bare' }), 'bare');

    const problems = problemsOf([Unbuilt]);

    it('fails at start-up for each handler with parameters, saying how to fix the build', () => {
      expect(problems.map((p) => p.split(':')[0])).to.deep.equal(['Unbuilt#forecast', 'Unbuilt#plan', 'Unbuilt#station']);
      expect(problems[0]).to.include('no design:paramtypes metadata')
        .and.include('"emitDecoratorMetadata": true').and.include('"experimentalDecorators": true')
        .and.include("import 'reflect-metadata'").and.include('{ input: ArgsClass }');
    });

    it('suggests input: only where the decorator has it', () => {
      expect(problems[2]).to.include('Compile with tsc').and.not.include('input:');
    });

    it('accepts a handler whose argument class is named, and one without parameters', () => {
      expect(problems.join('\n')).not.to.match(/#named|#bare/);
    });

    it('is what new PhantomServer throws', () => {
      expect(() => new PhantomServer({ name: 's', version: '1', providers: [Unbuilt] }))
        .to.throw(DefinitionError, /Unbuilt#forecast: it has parameters but no design:paramtypes metadata/);
    });
  });

  context('when an argument class advertises what it does not validate', () => {
    class Stop { @IsString() city!: string; }
    interface Contact { email: string }
    class GappyArgs {
      @ValidateNested({ each: true }) stops!: Stop[];
      @ValidateNested() first!: Stop;
      @Field() @Type(() => Stop) second!: Stop;
      @Field() contact!: Contact;
      @Field() id!: string | number;
      @Field() big!: bigint;
      @IsOptional() maybe?: Contact;
      @Allow() anything!: unknown;
      @IsIn(['a', 1]) either!: string | number;
      @ValidateNested({ each: true }) @Type(() => Stop) fine!: Stop[];
    }
    class Gappy {
      @Tool({ description: 'x' }) gappy(_args: GappyArgs) {}
    }
    class PlanArgs {
      @ValidateNested() @Type(() => Stop) stop!: Stop;
      @IsString({ each: true }) tags!: string[];
      @IsString() city!: string;
    }
    class Planner {
      @Prompt({ description: 'p' }) plan(_args: PlanArgs) {}
    }

    const problems = problemsOf([Gappy, Planner]);
    const problemOf = (label: string) => problems.find((p) => p.startsWith(`${label}: `));

    it('reports @ValidateNested({ each: true }) without @Type, whose elements nothing checks', () => {
      expect(problemOf('Gappy#gappy: GappyArgs#stops')).to.include('needs @Type(() => ItemClass)');
    });
    it('reports @ValidateNested() without @Type, and a nested class without @ValidateNested()', () => {
      expect(problemOf('Gappy#gappy: GappyArgs#first')).to.include('needs @Type(() => Stop)');
      expect(problemOf('Gappy#gappy: GappyArgs#second')).to.include('is a nested Stop but has no @ValidateNested()');
    });
    it('reports interfaces, unions and bigints that no validator types', () => {
      for (const name of ['contact', 'id', 'maybe']) expect(problemOf(`Gappy#gappy: GappyArgs#${name}`)).to.include('erased at run time');
      expect(problemOf('Gappy#gappy: GappyArgs#big')).to.include('bigint, which JSON cannot carry');
    });
    it('accepts what a validator or @Type describes', () => {
      expect(problems.join('\n')).not.to.match(/GappyArgs#(anything|either|fine):|PlanArgs#city/);
    });
    it('reports prompt arguments that a string can never fill', () => {
      expect(problemOf('Planner#plan: PlanArgs#stop')).to.include('is a nested object; prompt arguments are strings');
      expect(problemOf('Planner#plan: PlanArgs#tags')).to.include('is an array; prompt arguments are strings');
    });
  });
});
