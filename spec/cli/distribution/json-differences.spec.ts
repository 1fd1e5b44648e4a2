import { expect } from 'chai';
import { describeDifference, jsonDifferences } from '../../../lib/cli/distribution/json-differences';

describe('jsonDifferences', () => {
  it('finds none between equal values written in another key order', () => {
    expect(jsonDifferences({ a: 1, b: { c: [1, 2], d: 'x' } }, { b: { d: 'x', c: [1, 2] }, a: 1 })).to.deep.equal([]);
  });

  it('names each changed, missing and extra field by its path', () => {
    expect(jsonDifferences({ a: 1, b: { c: 2 }, d: true }, { a: 2, b: {}, e: null })).to.deep.equal([
      { path: 'a', expected: 1, actual: 2 },
      { path: 'b.c', expected: 2 },
      { path: 'd', expected: true },
      { path: 'e', actual: null },
    ]);
  });

  context('when an array\'s items have a key', () => {
    const keys = { variables: 'name' };

    it('matches them by it: one added in the middle is one difference', () => {
      const expected = { variables: [{ name: 'A' }, { name: 'NEW' }, { name: 'B', secret: true }] };
      const actual = { variables: [{ name: 'B', secret: false }, { name: 'A' }] };
      expect(jsonDifferences(expected, actual, keys)).to.deep.equal([
        { path: 'variables[NEW]', expected: { name: 'NEW' } },
        { path: 'variables[B].secret', expected: true, actual: false },
      ]);
    });

    it('falls back to positions when two items share a key', () => {
      expect(jsonDifferences({ variables: [{ name: 'A' }] }, { variables: [{ name: 'A' }, { name: 'A' }] }, keys)).to.deep.equal([{ path: 'variables[1]', actual: { name: 'A' } }]);
    });
  });

  it('tells a scalar from an object', () => {
    expect(jsonDifferences({ a: { b: 1 } }, { a: 'b' })).to.deep.equal([{ path: 'a', expected: { b: 1 }, actual: 'b' }]);
  });

  describe('describeDifference', () => {
    it('says which side has what, in one line', () => {
      expect(describeDifference({ path: 'version', expected: '1.1.0', actual: '1.0.0' }, 'server.json')).to.equal('version: "1.0.0" in server.json, "1.1.0" from the code');
      expect(describeDifference({ path: 'title', expected: 'Weather' }, 'server.json')).to.equal('title: missing from server.json; the code makes "Weather"');
      expect(describeDifference({ path: 'title', actual: 'Old' }, 'server.json')).to.equal('title: in server.json only ("Old"); the code makes none');
    });
  });
});
