import 'reflect-metadata';
import { expect } from 'chai';
import { Cancellation } from '../../lib/core/cancellation';
import { ErrorCode } from '../../lib';
import { RunningRequests } from '../../lib/protocol/running-requests';

describe('RunningRequests', () => {
  describe('#refusal', () => {
    it('refuses an id already running in the scope, naming the holder', () => {
      const running = new RunningRequests();
      running.start('pipe-1', 7, new Cancellation());
      expect(running.refusal('pipe-1', 7, 100, 'connection')).to.have.property('message').that.matches(/connection/);
      expect(running.refusal('other', 7, 100)).to.equal(undefined);
    });

    it('refuses past the cap of the scope with -32010', () => {
      const running = new RunningRequests();
      running.start('s', 1, new Cancellation());
      running.start('s', 2, new Cancellation());
      expect(running.refusal('s', 3, 2)).to.have.property('code', ErrorCode.TooManyRequests);
      running.finish('s', 1);
      expect(running.refusal('s', 3, 2)).to.equal(undefined);
    });
  });

  describe('#cancel', () => {
    it('cancels the request of that scope only, and says whether one ran here', () => {
      const running = new RunningRequests();
      const mine = new Cancellation();
      const theirs = new Cancellation();
      running.start('s', 1, mine);
      running.start('t', 1, theirs);
      expect(running.cancel('s', 1, 'stop')).to.equal(true);
      expect(mine.reason).to.equal('stop');
      expect(theirs.aborted).to.equal(false);
      expect(running.cancel('s', 2)).to.equal(false);
      expect(running.cancel('s', { id: 1 })).to.equal(false);
    });

    it('keeps 1 and "1" apart', () => {
      const running = new RunningRequests();
      const numeric = new Cancellation();
      running.start('s', 1, numeric);
      expect(running.cancel('s', '1')).to.equal(false);
      expect(numeric.aborted).to.equal(false);
    });
  });

  describe('#cancelScope', () => {
    it('cancels every request of the scope and forgets it', () => {
      const running = new RunningRequests();
      const a = new Cancellation();
      const b = new Cancellation();
      running.start('s', 1, a);
      running.start('s', 2, b);
      running.cancelScope('s', 'gone');
      expect([a.reason, b.reason]).to.deep.equal(['gone', 'gone']);
      expect(running.busy('s')).to.equal(false);
    });
  });
});
