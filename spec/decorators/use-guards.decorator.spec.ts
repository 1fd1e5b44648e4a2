import 'reflect-metadata';
import { expect } from 'chai';
import { UseGuards, UseInterceptors, type CallHandler, type CanActivate, type ExecutionContext, type Interceptor } from '../../lib';
import { METADATA_KEYS } from '../../lib/metadata/metadata-keys';
import { readClassPipelineMembers, readMethodPipelineMembers, readMisplaced } from '../../lib/metadata/metadata-store';

class A implements CanActivate { canActivate(): boolean { return true; } }
class B implements CanActivate { canActivate(): boolean { return true; } }
class C implements CanActivate { canActivate(): boolean { return true; } }
class Around implements Interceptor { intercept(_call: ExecutionContext, next: CallHandler) { return next(); } }

describe('UseGuards', () => {
  context('on a class', () => {
    @UseGuards(A, B)
    class Guarded {}

    it('records the guards on the class, in the order written, frozen', () => {
      const recorded = readClassPipelineMembers(METADATA_KEYS.guards, Guarded);
      expect(recorded).to.deep.equal([A, B]);
      expect(Object.isFrozen(recorded)).to.equal(true);
    });

    it('is read by a subclass that adds none', () => {
      class Sub extends Guarded {}
      expect(readClassPipelineMembers(METADATA_KEYS.guards, Sub)).to.deep.equal([A, B]);
    });
  });

  context('on a method, more than once', () => {
    const instance = new C();

    class Guarded {
      @UseGuards(A)
      @UseGuards(B, instance)
      guarded() { return 'ok'; }

      plain() { return 'ok'; }
    }

    it('records every guard on that method, top to bottom as written', () => {
      expect(readMethodPipelineMembers(METADATA_KEYS.guards, Guarded, 'guarded')).to.deep.equal([A, B, instance]);
      expect(readMethodPipelineMembers(METADATA_KEYS.guards, Guarded, 'plain')).to.deep.equal([]);
      expect(readClassPipelineMembers(METADATA_KEYS.guards, Guarded)).to.deep.equal([]);
    });
  });

  context('on a property', () => {
    class Misplaced {
      declare notAMethod: string;
    }
    (UseGuards(A) as (target: object, key: string) => void)(Misplaced.prototype, 'notAMethod');

    it('records it as misplaced, for the scanner to report', () => {
      expect(readMisplaced(Misplaced)).to.deep.equal([{ decorator: '@UseGuards', propertyKey: 'notAMethod', belongsOn: 'a class or a method' }]);
    });
  });
});

describe('UseInterceptors', () => {
  @UseInterceptors(Around)
  class Intercepted {
    @UseInterceptors(Around)
    method() { return 'ok'; }
  }

  it('records interceptors under their own key, apart from guards', () => {
    expect(readClassPipelineMembers(METADATA_KEYS.interceptors, Intercepted)).to.deep.equal([Around]);
    expect(readMethodPipelineMembers(METADATA_KEYS.interceptors, Intercepted, 'method')).to.deep.equal([Around]);
    expect(readClassPipelineMembers(METADATA_KEYS.guards, Intercepted)).to.deep.equal([]);
  });
});
