import 'reflect-metadata';
import { expect } from 'chai';
import { PhantomError, type CallHandler, type CanActivate, type ExecutionContext, type Interceptor } from '../../../lib';
import type { Constructor } from '../../../lib/metadata/metadata-store';
import { PipelineMembers } from '../../../lib/router/pipeline/pipeline-members';

class Allow implements CanActivate {
  canActivate(): boolean { return true; }
}

class Pass implements Interceptor {
  intercept(_call: ExecutionContext, next: CallHandler): Promise<unknown> { return next(); }
}

class Both implements CanActivate, Interceptor {
  canActivate(): boolean { return true; }
  intercept(_call: ExecutionContext, next: CallHandler): Promise<unknown> { return next(); }
}

function counting(): { resolve: (cls: Constructor) => object; built: Constructor[] } {
  const built: Constructor[] = [];
  return { built, resolve: (cls) => { built.push(cls); return new cls() as object; } };
}

describe('PipelineMembers', () => {
  describe('#use', () => {
    it('sorts guards from interceptors, classes and instances alike, keeping their order', () => {
      const { resolve } = counting();
      const members = new PipelineMembers(resolve);
      const instance = new Allow();
      members.use([Pass, instance, Allow]);
      const guards = members.guardsFor();
      expect(guards).to.have.length(2);
      expect(guards[0]).to.equal(instance);
      expect(guards[1]).to.be.instanceOf(Allow);
      expect(members.interceptorsFor()[0]).to.be.instanceOf(Pass);
    });

    it('gives a member with both methods both parts, as one instance', () => {
      const members = new PipelineMembers(counting().resolve);
      members.use([Both]);
      expect(members.guardsFor()[0]).to.equal(members.interceptorsFor()[0]);
    });

    it('refuses what is neither, naming it, and adds nothing', () => {
      const members = new PipelineMembers(counting().resolve);
      class Plain {}
      expect(() => members.use([Allow, Plain, undefined, {}])).to.throw(PhantomError, /got class Plain, undefined, an instance of Object/);
      expect(members.guardsFor()).to.deep.equal([]);
    });

    it('tells its listeners, so compiled pipelines are dropped', () => {
      const members = new PipelineMembers(counting().resolve);
      let told = 0;
      members.onChange(() => { told += 1; });
      members.use([Allow]);
      expect(told).to.equal(1);
    });
  });

  describe('#guardsFor', () => {
    it('puts the server\'s members before the target\'s (class, then method)', () => {
      const members = new PipelineMembers(counting().resolve);
      const global = new Allow();
      const onClass = new Allow();
      const onMethod = new Allow();
      members.use([global]);
      expect(members.guardsFor({ guards: [onClass, onMethod], interceptors: [] })).to.deep.equal([global, onClass, onMethod]);
    });

    it('builds each class once from the container, shared by every target that names it', () => {
      const { resolve, built } = counting();
      const members = new PipelineMembers(resolve);
      const first = members.guardsFor({ guards: [Allow], interceptors: [] });
      const second = members.guardsFor({ guards: [Allow], interceptors: [] });
      expect(first[0]).to.equal(second[0]);
      expect(built).to.deep.equal([Allow]);
    });
  });
});
