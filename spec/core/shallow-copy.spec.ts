import { expect } from 'chai';
import { shallowCopy } from '../../lib/core/shallow-copy';

describe('shallowCopy', () => {
  context('when the object is plain', () => {
    it('is a new object with the same own properties, shared values and all', () => {
      const content = [{ type: 'text', text: 'hi' }];
      const original = { content, isError: false };
      const copy = shallowCopy(original);
      expect(copy).to.not.equal(original);
      expect(copy).to.deep.equal(original);
      expect(copy.content).to.equal(content);
    });

    it('leaves the original alone when the copy gains properties', () => {
      const original: Record<string, unknown> = { a: 1 };
      const copy = shallowCopy(original);
      copy.b = 2;
      expect(original).to.deep.equal({ a: 1 });
    });
  });

  context('when the object has symbol keys or inherited properties', () => {
    it('copies own symbol keys and leaves inherited properties behind, as a spread does', () => {
      const tag = Symbol('tag');
      const original = Object.assign(Object.create({ inherited: true }), { own: 1, [tag]: 'x' });
      const copy = shallowCopy(original);
      expect(Object.getPrototypeOf(copy)).to.equal(Object.prototype);
      expect(copy.own).to.equal(1);
      expect(copy[tag]).to.equal('x');
      expect('inherited' in copy).to.equal(false);
    });
  });

  context('when the object has an own __proto__ (as JSON.parse makes one)', () => {
    it('keeps it an own property and does not change the copy\'s prototype', () => {
      const original = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as Record<string, unknown>;
      const copy = shallowCopy(original);
      expect(Object.getPrototypeOf(copy)).to.equal(Object.prototype);
      expect(Object.hasOwn(copy, '__proto__')).to.equal(true);
      expect((copy as { polluted?: unknown }).polluted).to.equal(undefined);
      expect(JSON.stringify(copy)).to.equal(JSON.stringify(original));
    });
  });
});
