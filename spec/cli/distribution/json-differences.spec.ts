import { expect } from 'chai';
import { jsonDifferences } from '../../../lib/cli/distribution/json-differences';

describe('jsonDifferences', () => {
  context('when the documents are the same', () => {
    it('finds nothing, whatever the order of the keys', () => {
      expect(jsonDifferences({ a: 1, b: { c: [1, 2] } }, { b: { c: [1, 2] }, a: 1 })).to.deep.equal([]);
    });
  });

  context('when lists of named items differ', () => {
    it('matches them by name: one line for an item added, gone or changed', () => {
      const committed = { tools: [{ name: 'forecast', description: 'old' }, { name: 'storm' }] };
      const now = { tools: [{ name: 'alerts' }, { name: 'forecast', description: 'new' }] };
      expect(jsonDifferences(committed, now)).to.deep.equal([
        'tools["forecast"].description: "old" -> "new"',
        'tools["storm"]: gone',
        'tools["alerts"]: new',
      ]);
    });

    it('says so when only their order changed', () => {
      expect(jsonDifferences({ tools: [{ name: 'a' }, { name: 'b' }] }, { tools: [{ name: 'b' }, { name: 'a' }] })).to.deep.equal(['tools: the same items in another order (b, a)']);
    });
  });

  context('when keys or values differ', () => {
    it('names each key by its path, with both values (long ones shortened)', () => {
      const long = 'x'.repeat(100);
      expect(jsonDifferences({ version: '1.0.0', server: { args: ['a'] }, old: true }, { version: '1.1.0', server: { args: ['b'] }, extra: long })).to.deep.equal([
        'version: "1.0.0" -> "1.1.0"',
        'server.args: ["a"] -> ["b"]',
        'old: gone (was true)',
        `extra: new ("${'x'.repeat(76)}...)`,
      ]);
    });
  });
});
