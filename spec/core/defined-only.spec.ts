import { expect } from 'chai';
import { definedOnly } from '../../lib/core/defined-only';

describe('definedOnly', () => {
  context('when some keys are undefined', () => {
    it('leaves them out and keeps every other value, falsy ones too', () => {
      const copy = definedOnly({ a: undefined, b: null, c: 0, d: '', e: false, f: 'x' });
      expect(copy).to.deep.equal({ b: null, c: 0, d: '', e: false, f: 'x' });
      expect(Object.keys(copy)).not.to.include('a');
    });
  });

  context('when given an object', () => {
    it('gives a copy and leaves the original as it was', () => {
      const original = { a: 1, b: undefined };
      const copy = definedOnly(original);
      expect(copy).not.to.equal(original);
      expect(Object.keys(original)).to.deep.equal(['a', 'b']);
    });
  });
});

describe('definedOnly with a parsed __proto__ key', () => {
  it('copies it as an own key and leaves the copy an ordinary object', () => {
    const copy = definedOnly(JSON.parse('{"__proto__":{"polluted":true},"a":1}') as Record<string, unknown>);
    expect(Object.getPrototypeOf(copy)).to.equal(Object.prototype);
    expect(Object.keys(copy)).to.deep.equal(['__proto__', 'a']);
    expect((copy as { polluted?: boolean }).polluted).to.equal(undefined);
  });
});
