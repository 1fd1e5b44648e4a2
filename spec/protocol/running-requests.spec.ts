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

  describe('#finish', () => {
    it('frees the id and the slot under the cap, whether one or several requests ran', () => {
      const running = new RunningRequests();
      running.start('s', 1, new Cancellation());
      running.finish('s', 1);
      expect(running.refusal('s', 1, 1)).to.equal(undefined);
      expect(running.cancel('s', 1)).to.equal(false);
      running.start('s', 1, new Cancellation());
      running.start('s', 2, new Cancellation());
      running.finish('s', 1);
      expect(running.refusal('s', 1, 2)).to.equal(undefined);
      expect(running.refusal('s', 2, 5)).to.have.property('code');
      running.start('s', 3, new Cancellation());
      expect(running.refusal('s', 4, 2)).to.have.property('code', ErrorCode.TooManyRequests);
      running.finish('s', 3);
      running.finish('s', 2);
      expect(running.refusal('s', 4, 1)).to.equal(undefined);
      running.finish('s', 99);
      running.finish('unknown', 1);
    });
  });

  describe('#busy and #busyScopes', () => {
    it('name the scopes with a request running now, not those whose requests all finished', () => {
      const running = new RunningRequests();
      running.start('idle', 1, new Cancellation());
      running.finish('idle', 1);
      running.start('one', 1, new Cancellation());
      running.start('two', 1, new Cancellation());
      running.start('two', 2, new Cancellation());
      running.finish('two', 1);
      expect([running.busy('idle'), running.busy('one'), running.busy('two'), running.busy('never')]).to.deep.equal([false, true, true, false]);
      expect([...running.busyScopes()]).to.deep.equal(['one', 'two']);
    });
  });

  describe('#cancelScope', () => {
    it('cancels the requests in the order they started, a lone one and later ones alike', () => {
      const running = new RunningRequests();
      const order: string[] = [];
      const started = (name: string) => {
        const cancellation = new Cancellation();
        cancellation.onCancel(() => order.push(name));
        return cancellation;
      };
      running.start('s', 'a', started('a'));
      running.start('s', 'b', started('b'));
      running.finish('s', 'a');
      running.start('s', 'c', started('c'));
      running.cancelScope('s');
      running.start('t', 'd', started('d'));
      running.finish('t', 'd');
      running.start('t', 'e', started('e'));
      running.start('t', 'f', started('f'));
      running.cancelScope('t');
      expect(order).to.deep.equal(['b', 'c', 'e', 'f']);
    });

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
