import 'reflect-metadata';
import { expect } from 'chai';
import {
  DefinitionError, PhantomServer, Tool, UseGuards,
  type CallHandler, type CanActivate, type ExecutionContext, type Interceptor,
} from '../../lib';
import type { Constructor } from '../../lib/metadata/metadata-store';

/** A container of someone else's: instances by class, and a count of what the server asked it. */
class MapContainer {
  readonly asked: Function[] = [];
  constructor(private readonly instances: Map<Function, unknown>) {}
  readonly get = (cls: Constructor): unknown => {
    this.asked.push(cls);
    return this.instances.get(cls);
  };
}

function problemsOf(make: () => unknown): string[] {
  try {
    make();
  } catch (error) {
    expect(error).to.be.instanceOf(DefinitionError);
    return [...(error as DefinitionError).problems];
  }
  return [];
}

describe('PhantomServer', () => {
  describe('#constructor, with the resolve option', () => {
    interface Greeter { greet(name: string): string }

    // No @injectable(), a parameter typed as an interface: tsyringe could build neither; the other container does.
    class GreetingTools {
      constructor(private readonly greeter: Greeter) {}
      @Tool({ description: 'Greets' }) hello() { return this.greeter.greet('Ada'); }
      @Tool({ description: 'Greets twice' }) twice() { return `${this.greeter.greet('Ada')} ${this.greeter.greet('Ada')}`; }
    }

    const greeter: Greeter = { greet: (name) => `Hi ${name}` };

    context('when the other container holds every provider', () => {
      it('serves the instance it gives, asked for once per class and before any call', async () => {
        const tools = new GreetingTools(greeter);
        const container = new MapContainer(new Map([[GreetingTools, tools]]));
        const server = new PhantomServer({ name: 's', version: '1', providers: [GreetingTools], resolve: container.get });
        expect(container.asked).to.deep.equal([GreetingTools]);
        expect(await server.handle('tools/call', { name: 'hello' })).to.deep.equal({ result: { content: [{ type: 'text', text: 'Hi Ada' }] } });
        expect(await server.handle('tools/call', { name: 'twice' })).to.deep.equal({ result: { content: [{ type: 'text', text: 'Hi Ada Hi Ada' }] } });
        expect(container.asked).to.deep.equal([GreetingTools]);
      });

      it('keeps the first instance, even when the other container gives a new one each time', async () => {
        let made = 0;
        class Counted {
          readonly n = (made += 1);
          @Tool({ description: 'n' }) n_() { return String(this.n); }
        }
        const server = new PhantomServer({ name: 's', version: '1', providers: [Counted], resolve: () => new Counted() });
        await server.handle('tools/call', { name: 'n_' });
        expect((await server.handle('tools/call', { name: 'n_' }) as any).result.content[0].text).to.equal('1');
        expect(made).to.equal(1);
      });
    });

    context('when the other container does not hold a provider', () => {
      class Missing { @Tool({ description: 'm' }) m() { return 'm'; } }

      it('fails at start-up naming the class, and what resolve gave', () => {
        const container = new MapContainer(new Map([[GreetingTools, new GreetingTools(greeter)]]));
        expect(problemsOf(() => new PhantomServer({ name: 's', version: '1', providers: [GreetingTools, Missing], resolve: container.get }))).to.deep.equal([
          'Missing: the resolve option gave undefined; the container behind it must supply an instance of every provider, guard and '
          + 'interceptor class the server is given (register the class there; a guard or interceptor may be given as an instance instead)',
        ]);
      });

      it('fails at start-up with the message resolve threw', () => {
        const resolve = (cls: Constructor) => { throw new Error(`Nest could not find ${cls.name} element`); };
        expect(problemsOf(() => new PhantomServer({ name: 's', version: '1', providers: [Missing], resolve })))
          .to.deep.equal(['Missing: the resolve option threw: Nest could not find Missing element']);
      });

      it('fails at start-up when resolve gives an instance of another class', () => {
        expect(problemsOf(() => new PhantomServer({ name: 's', version: '1', providers: [Missing], resolve: () => new GreetingTools(greeter) })))
          .to.have.length(1).and.to.have.nested.property('[0]').that.match(/^Missing: the resolve option gave an object that is not a Missing \(GreetingTools\);/);
      });
    });

    context('when a provider names guards and interceptors as classes', () => {
      class Deny implements CanActivate { canActivate() { return false; } }
      class Tag implements Interceptor {
        async intercept(_call: ExecutionContext, next: CallHandler) { return `${String(await next())}!`; }
      }

      @UseGuards(Deny)
      class Guarded { @Tool({ description: 'g' }) g() { return 'g'; } }

      it('asks the other container for them too, at start-up', async () => {
        const container = new MapContainer(new Map<Function, unknown>([[Guarded, new Guarded()], [Deny, new Deny()]]));
        const server = new PhantomServer({ name: 's', version: '1', providers: [Guarded], resolve: container.get });
        expect(container.asked).to.deep.equal([Guarded, Deny]);
        expect(await server.handle('tools/call', { name: 'g' })).to.have.property('error').that.deep.include({ code: -32003 });
      });

      it('fails at start-up when it does not hold one', () => {
        expect(problemsOf(() => new PhantomServer({ name: 's', version: '1', providers: [Guarded], resolve: new MapContainer(new Map([[Guarded, new Guarded()]])).get })))
          .to.have.length(1).and.to.have.nested.property('[0]').that.match(/^Deny: the resolve option gave undefined;/);
      });

      it('resolves a class given to use() from it, and refuses one it does not hold there and then', async () => {
        class Plain { @Tool({ description: 'p' }) p() { return 'p'; } }
        const container = new MapContainer(new Map<Function, unknown>([[Plain, new Plain()], [Tag, new Tag()]]));
        const server = new PhantomServer({ name: 's', version: '1', providers: [Plain], resolve: container.get });
        server.use(Tag);
        expect(await server.handle('tools/call', { name: 'p' })).to.deep.equal({ result: { content: [{ type: 'text', text: 'p!' }] } });
        expect(() => server.use(Deny)).to.throw(DefinitionError, /Deny: the resolve option gave undefined/);
      });
    });

    context('when a provider is added at runtime', () => {
      class Later { @Tool({ description: 'l' }) l() { return 'l'; } }

      it('asks the other container on add(), and refuses a class it does not hold', () => {
        const server = new PhantomServer({ name: 's', version: '1', providers: [], resolve: new MapContainer(new Map()).get });
        expect(() => server.add(Later)).to.throw(DefinitionError, /Later: the resolve option gave undefined/);
      });
    });
  });
});
