import 'reflect-metadata';
import { expect } from 'chai';
import { inject, injectable } from 'tsyringe';
import { DefinitionError, Prompt, Resource, Tool, UseGuards, UseInterceptors, type CallHandler, type CanActivate, type ExecutionContext, type Interceptor } from '../../lib';
import { scan } from '../../lib/definitions/scanner';
import { wiringProblems } from '../../lib/definitions/provider-wiring.check';
import type { Constructor } from '../../lib/metadata/metadata-store';

const resolve = (cls: Constructor): object => new cls() as object;

class Allow implements CanActivate { canActivate(): boolean { return true; } }
class Pass implements Interceptor { intercept(_call: ExecutionContext, next: CallHandler) { return next(); } }

function problemsOf(providers: Function[], isRegistered: (token: unknown) => boolean = () => false): string[] {
  try {
    const source = { isRegistered, problems: (classes: readonly Constructor[]) => wiringProblems({ classes, isRegistered }) };
    scan({ providers: providers as never, resolve: resolve as never, wiring: { classes: providers as never, source } });
  } catch (error) {
    expect(error).to.be.instanceOf(DefinitionError);
    return [...(error as DefinitionError).problems];
  }
  return [];
}

describe('scanPipelineMembers', () => {
  context('when guards and interceptors are named on the class and on methods', () => {
    const onMethod = new Allow();

    @UseGuards(Allow)
    @UseInterceptors(Pass)
    class Served {
      @UseGuards(onMethod)
      @Tool({ description: 'T' }) tool() { return 'ok'; }

      @Prompt({ description: 'P' }) prompt() { return 'ok'; }

      @UseInterceptors(Pass)
      @Resource('x://r', { description: 'R' }) resource() { return 'ok'; }
    }

    it('gives each definition the class\'s members, then its method\'s, and where it is served', () => {
      const { tools, prompts, resources } = scan({ providers: [Served], resolve });
      expect(tools[0].pipeline).to.deep.equal({ guards: [Allow, onMethod], interceptors: [Pass] });
      expect(prompts[0].pipeline).to.deep.equal({ guards: [Allow], interceptors: [Pass] });
      expect(resources[0].pipeline).to.deep.equal({ guards: [Allow], interceptors: [Pass, Pass] });
      expect(tools[0]).to.include({ owner: Served, member: 'tool' });
      expect(resources[0]).to.include({ owner: Served, member: 'resource' });
    });
  });

  context('when a decorator names something that is not a member of its kind', () => {
    @UseGuards(undefined as never)
    class BadClass {
      @Tool({ description: 'T' }) a() { return 'ok'; }
      @Tool({ description: 'T' }) b() { return 'ok'; }
    }

    class BadMethod {
      @UseInterceptors(Allow as never)
      @Tool({ description: 'T' }) wrongKind() { return 'ok'; }

      @UseGuards({} as never)
      @Prompt({ description: 'P' }) notAGuard() { return 'ok'; }
    }

    it('reports every one at start-up, a class-level one once', () => {
      expect(problemsOf([BadClass, BadMethod])).to.deep.equal([
        'BadClass: @UseGuards names undefined, which is not a guard (a class or an object with canActivate)',
        'BadMethod#wrongKind: @UseInterceptors names class Allow, which is not an interceptor (a class or an object with intercept)',
        'BadMethod#notAGuard: @UseGuards names an instance of Object, which is not a guard (a class or an object with canActivate)',
      ]);
    });
  });

  context('when a guard class cannot be built by the container', () => {
    class Acl {}

    @injectable()
    class NeedsToken implements CanActivate {
      constructor(@inject('acl') readonly acl: Acl) {}
      canActivate(): boolean { return true; }
    }

    class Guarded {
      @UseGuards(NeedsToken)
      @Tool({ description: 'T' }) t() { return 'ok'; }
    }

    it('reports its wiring with the providers\'', () => {
      expect(problemsOf([Guarded])).to.deep.equal([
        'NeedsToken: constructor parameter 0 (acl) asks for "acl" (@inject), which is registered nowhere in the server\'s container or its parents; register it before the server is made',
      ]);
    });

    it('takes it as it is when the container registers it', () => {
      expect(problemsOf([Guarded], (token) => token === NeedsToken)).to.deep.equal([]);
    });
  });

  context('when @UseGuards decorates a property', () => {
    class Misplaced {
      declare prop: string;
      @Tool({ description: 'T' }) t() { return 'ok'; }
    }
    (UseGuards(Allow) as (target: object, key: string) => void)(Misplaced.prototype, 'prop');

    it('reports where it belongs', () => {
      expect(problemsOf([Misplaced])).to.deep.equal(['Misplaced#prop: @UseGuards belongs on a class or a method']);
    });
  });
});
