import { expect } from 'chai';
import { canonicalJson } from '../../lib/core/canonical-json';
import { ProtocolError } from '../../lib/core/errors';

describe('canonicalJson', () => {
  context('when two values differ only in the order of their keys', () => {
    it('reads them the same, at every depth', () => {
      const one = { sub: 'ada', org: { id: 7, name: 'x' }, roles: [{ b: 1, a: 2 }] };
      const other = { roles: [{ a: 2, b: 1 }], org: { name: 'x', id: 7 }, sub: 'ada' };
      expect(canonicalJson(one)).to.equal(canonicalJson(other));
      expect(canonicalJson(one)).to.equal('{"org":{"id":7,"name":"x"},"roles":[{"a":2,"b":1}],"sub":"ada"}');
    });
  });

  context('when values differ', () => {
    it('reads them differently, arrays in their own order', () => {
      expect(canonicalJson({ sub: 'ada' })).not.to.equal(canonicalJson({ sub: 'eve' }));
      expect(canonicalJson([1, 2])).not.to.equal(canonicalJson([2, 1]));
      expect(canonicalJson({ a: '1' })).not.to.equal(canonicalJson({ a: 1 }));
    });
  });

  context('when an object has undefined members', () => {
    it('leaves them out, as JSON does', () => {
      expect(canonicalJson({ a: 1, b: undefined })).to.equal(canonicalJson({ a: 1 }));
    });
  });

  context('when the value is a scalar, null or undefined', () => {
    it('writes it as JSON, undefined as null', () => {
      expect([canonicalJson('a"b'), canonicalJson(3), canonicalJson(null), canonicalJson(undefined), canonicalJson(true)])
        .to.deep.equal(['"a\\"b"', '3', 'null', 'null', 'true']);
    });
  });

  context('when a key needs escaping', () => {
    it('escapes it, so a key cannot forge structure', () => {
      expect(canonicalJson({ 'a":1,"b': 2 })).to.equal('{"a\\":1,\\"b":2}');
      expect(canonicalJson({ 'a":1,"b': 2 })).not.to.equal(canonicalJson({ a: 1, b: 2 }));
    });
  });

  context('when the value nests deeper than 1,000 levels', () => {
    it('refuses it with invalid params naming the subject, instead of overflowing the stack', () => {
      let deep: unknown = 'x';
      for (let i = 0; i < 1_002; i += 1) deep = [deep];
      const refusal = (() => { try { canonicalJson(deep, 'the principal is'); return undefined; } catch (error) { return error; } })();
      expect(refusal).to.be.instanceOf(ProtocolError);
      expect((refusal as ProtocolError).toJSON()).to.deep.equal({ code: -32602, message: 'the principal is nested deeper than 1000 levels' });
    });
  });
});
