import 'reflect-metadata';
import { expect } from 'chai';
import { dirname } from 'node:path';
import { container as rootContainer, delay, inject, injectable, type DependencyContainer } from 'tsyringe';
import { DefinitionError, PhantomServer, Tool } from '../../lib';
import type { Constructor } from '../../lib/metadata/metadata-store';

/** The problems `new PhantomServer` reports for these providers, or none. */
function wiringProblemsOf(providers: Function[], container?: DependencyContainer): string[] {
  try {
    new PhantomServer({ name: 'wiring', version: '1', providers: providers as Constructor[], container });
  } catch (error) {
    expect(error).to.be.instanceOf(DefinitionError);
    return [...(error as DefinitionError).problems];
  }
  return [];
}

/**
 * A second, separate copy of tsyringe, as a project gets when its own tsyringe is not the one
 * phantom-mcp resolves: loaded afresh, so it has its own registry of @injectable() classes.
 */
function loadSecondTsyringe(): typeof import('tsyringe') {
  const root = dirname(require.resolve('tsyringe'));
  const ours = Object.keys(require.cache).filter((key) => key.startsWith(root));
  const saved = ours.map((key) => [key, require.cache[key]] as const);
  for (const key of ours) delete require.cache[key];
  try {
    return require('tsyringe') as typeof import('tsyringe');
  } finally {
    for (const key of Object.keys(require.cache)) if (key.startsWith(root)) delete require.cache[key];
    for (const [key, module] of saved) require.cache[key] = module;
  }
}

describe('PhantomServer', () => {
  describe('#constructor, checking how providers are wired', () => {
    interface Mailer { send(to: string): void }

    @injectable()
    class Clock { now() { return 'noon'; } }

    context('when every dependency can be built or is registered', () => {
      @injectable()
      class Wired {
        constructor(
          readonly clock: Clock,
          @inject('Mailer') readonly mailer: Mailer,
          @inject('API_KEY') readonly apiKey: string,
          @inject('MISSING', { isOptional: true }) readonly optional: string | undefined,
          @inject(PhantomServer) readonly server: PhantomServer,
        ) {}
        @Tool({ description: 'x' }) x() { return this.clock.now(); }
      }

      it('accepts it, and the provider is built on the first call', async () => {
        const parent = rootContainer.createChildContainer();
        parent.register('Mailer', { useValue: { send: () => undefined } });
        parent.register('API_KEY', { useValue: 'secret' });
        expect(wiringProblemsOf([Wired], parent)).to.deep.equal([]);
        const server = new PhantomServer({ name: 's', version: '1', providers: [Wired], container: parent });
        expect(await server.handle('tools/call', { name: 'x' })).to.deep.equal({ result: { content: [{ type: 'text', text: 'noon' }] } });
      });
    });

    context('when a provider has constructor parameters but no @injectable()', () => {
      class Undecorated {
        constructor(readonly clock: Clock) {}
        @Tool({ description: 'x' }) x() { return this.clock.now(); }
      }

      it('fails at start-up naming the class', () => {
        expect(wiringProblemsOf([Undecorated])).to.deep.equal([
          'Undecorated: has constructor parameters but no @injectable(), so tsyringe cannot tell what to pass; '
          + 'add @injectable() from tsyringe (and compile with "emitDecoratorMetadata": true)',
        ]);
      });
    });

    context('when a dependency is typed as an interface without @inject', () => {
      @injectable()
      class Notifier {
        constructor(readonly clock: Clock, readonly mailer: Mailer) {}
        @Tool({ description: 'x' }) x() { return 'x'; }
      }

      it('names the class, the parameter index and its name', () => {
        expect(wiringProblemsOf([Notifier])).to.deep.equal([
          'Notifier: constructor parameter 1 (mailer) is typed as an interface, a union or any (its runtime type is Object, '
          + 'which tells tsyringe nothing); name the dependency with @inject(token) and register the token',
        ]);
      });
    });

    context('when an @inject token is registered nowhere', () => {
      @injectable()
      class Keyed {
        constructor(@inject('API_KEY') readonly apiKey: string, @inject(Symbol.for('db')) readonly db: object) {}
        @Tool({ description: 'x' }) x() { return this.apiKey; }
      }

      it('reports each token', () => {
        expect(wiringProblemsOf([Keyed])).to.deep.equal([
          'Keyed: constructor parameter 0 (apiKey) asks for "API_KEY" (@inject), which is registered nowhere in the server\'s container or its parents; register it before the server is made',
          'Keyed: constructor parameter 1 (db) asks for Symbol(db) (@inject), which is registered nowhere in the server\'s container or its parents; register it before the server is made',
        ]);
      });

      it('accepts it once the token is registered in the container passed in', () => {
        const parent = rootContainer.createChildContainer();
        parent.register('API_KEY', { useValue: 'k' });
        parent.register(Symbol.for('db'), { useValue: {} });
        expect(wiringProblemsOf([Keyed], parent)).to.deep.equal([]);
      });
    });

    context('when a dependency of a dependency is miswired', () => {
      @injectable()
      class Api {
        constructor(readonly mailer: Mailer, readonly port: number) {}
      }
      @injectable()
      class Weather {
        constructor(readonly api: Api) {}
        @Tool({ description: 'x' }) x() { return 'x'; }
      }
      @injectable()
      class Traffic {
        constructor(readonly api: Api) {}
        @Tool({ description: 'y' }) y() { return 'y'; }
      }

      it('follows constructor dependencies and reports each problem once, with the path to it', () => {
        expect(wiringProblemsOf([Weather, Traffic])).to.deep.equal([
          'Weather -> Api: constructor parameter 0 (mailer) is typed as an interface, a union or any (its runtime type is Object, '
          + 'which tells tsyringe nothing); name the dependency with @inject(token) and register the token',
          'Weather -> Api: constructor parameter 1 (port) is typed as Number, which tsyringe cannot build; give it @inject(token) with a registered token',
        ]);
      });

      it('does not look into a dependency the container registers', () => {
        const parent = rootContainer.createChildContainer();
        parent.register(Api, { useValue: {} as Api });
        expect(wiringProblemsOf([Weather], parent)).to.deep.equal([]);
      });
    });

    context('when constructors depend on each other in a cycle', () => {
      class Eggs { constructor(readonly hens: unknown) {} }
      class Hens {
        constructor(readonly eggs: unknown) {}
        @Tool({ description: 'x' }) x() { return 'x'; }
      }
      // What the decorators would record, were the two classes not declared in one file.
      Reflect.defineMetadata('design:paramtypes', [Hens], Eggs);
      Reflect.defineMetadata('design:paramtypes', [Eggs], Hens);
      injectable()(Eggs);
      injectable()(Hens);

      it('reports the cycle, which tsyringe would recurse on for ever', () => {
        expect(wiringProblemsOf([Hens])).to.deep.equal([
          'Hens -> Eggs: constructor parameter 0 (hens): the constructors depend on each other in a cycle (Hens -> Eggs -> Hens), '
          + 'which tsyringe never finishes building; break it with @inject(delay(() => Hens))',
        ]);
      });

      it('reports a cycle between two providers', () => {
        class Left { constructor(readonly right: unknown) {} @Tool({ description: 'l' }) l() { return 'l'; } }
        class Right { constructor(readonly left: unknown) {} @Tool({ description: 'r' }) r() { return 'r'; } }
        Reflect.defineMetadata('design:paramtypes', [Right], Left);
        Reflect.defineMetadata('design:paramtypes', [Left], Right);
        injectable()(Left);
        injectable()(Right);
        expect(wiringProblemsOf([Left, Right])).to.deep.equal([
          'Right: constructor parameter 0 (left): the constructors depend on each other in a cycle (Left -> Right -> Left), '
          + 'which tsyringe never finishes building; break it with @inject(delay(() => Left))',
        ]);
      });

      it('accepts a cycle broken with delay()', () => {
        @injectable()
        class Lazy {
          constructor(@inject(delay(() => Hens)) readonly hens: unknown) {}
          @Tool({ description: 'z' }) z() { return 'z'; }
        }
        expect(wiringProblemsOf([Lazy])).to.deep.equal([]);
      });
    });

    context('when a provider was decorated by a second copy of tsyringe', () => {
      const second = loadSecondTsyringe();
      @second.injectable()
      class Foreign {
        constructor(readonly clock: Clock) {}
        @Tool({ description: 'x' }) x() { return this.clock.now(); }
      }

      it('says that a second copy of tsyringe is the likely cause', () => {
        const problems = wiringProblemsOf([Foreign]);
        expect(problems).to.have.length(1);
        expect(problems[0]).to.match(/^Foreign: has constructor parameters and decorator metadata, but the tsyringe phantom-mcp uses has no record of @injectable\(\) on it/)
          .and.to.match(/a second copy of tsyringe is the likely cause \(run `npm ls tsyringe`/);
      });
    });

    context('when the build dropped decorator metadata', () => {
      class Stripped {
        constructor(readonly clock: Clock) {}
        @Tool({ description: 'x' }) x() { return 'x'; }
      }
      Reflect.deleteMetadata('design:paramtypes', Stripped);
      injectable()(Stripped);

      it('says how to fix the build', () => {
        expect(wiringProblemsOf([Stripped])).to.deep.equal([
          'Stripped: is @injectable() but its constructor parameter types were not emitted; compile with tsc and "emitDecoratorMetadata": true (tsx and esbuild drop them)',
        ]);
      });
    });

    context('when wiring and definition problems come together', () => {
      class Both {
        constructor(readonly clock: Clock) {}
        @Tool() noDescription() { return 'x'; }
      }

      it('reports all of them in one DefinitionError', () => {
        const problems = wiringProblemsOf([Both]);
        expect(problems).to.have.length(2);
        expect(problems[0]).to.match(/^Both#noDescription: /);
        expect(problems[1]).to.match(/^Both: has constructor parameters but no @injectable\(\)/);
      });
    });
  });

  describe('#add', () => {
    context('when the added provider is miswired', () => {
      @injectable()
      class Late {
        constructor(@inject('LATE') readonly value: string) {}
        @Tool({ description: 'x' }) late() { return this.value; }
      }

      it('refuses it, adding nothing, and checks it again when it is added once more', async () => {
        const server = new PhantomServer({ name: 's', version: '1', providers: [] });
        expect(() => server.add(Late)).to.throw(DefinitionError, /Late: constructor parameter 0 \(value\) asks for "LATE"/);
        expect(await server.handle('tools/call', { name: 'late' })).to.have.nested.property('error.code', -32602);
        expect(server.container.isRegistered(Late)).to.equal(false);
        expect(() => server.add(Late)).to.throw(DefinitionError, /asks for "LATE"/);
        server.container.register('LATE', { useValue: 'v' });
        server.add(Late);
        expect(await server.handle('tools/call', { name: 'late' })).to.deep.equal({ result: { content: [{ type: 'text', text: 'v' }] } });
      });
    });
  });
});
