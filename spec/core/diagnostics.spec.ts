import { expect } from 'chai';
import type { Diagnostics } from '../../lib';
import { WarningThrottle } from '../../lib/core/diagnostics';

describe('WarningThrottle', () => {
  const recording = () => {
    const lines: string[] = [];
    const diagnostics: Diagnostics = { error: () => {}, warn: (message) => { lines.push(message); } };
    return { lines, diagnostics };
  };

  describe('#warn', () => {
    context('when one kind floods', () => {
      it('writes the first lines of the window and holds back the rest', () => {
        const { lines, diagnostics } = recording();
        const throttle = new WarningThrottle(diagnostics, { lines: 2, windowMs: 60_000 });
        for (let i = 0; i < 50; i += 1) throttle.warn('flood', `line ${i}`);
        expect(lines).to.deep.equal(['line 0', 'line 1']);
      });
    });

    context('when two kinds are warned about', () => {
      it('gives each kind its own allowance', () => {
        const { lines, diagnostics } = recording();
        const throttle = new WarningThrottle(diagnostics, { lines: 1, windowMs: 60_000 });
        for (let i = 0; i < 5; i += 1) {
          throttle.warn('a', `a ${i}`);
          throttle.warn('b', `b ${i}`);
        }
        expect(lines).to.deep.equal(['a 0', 'b 0']);
      });
    });
  });
});
