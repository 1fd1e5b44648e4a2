import { expect } from 'chai';
import { Cancellation } from '../../lib/core/cancellation';

describe('Cancellation', () => {
  describe('#cancel', () => {
    context('when nobody has asked for the signal yet', () => {
      it('is seen by a signal asked for afterwards, with its reason', () => {
        const cancellation = new Cancellation();
        cancellation.cancel('client cancelled');
        expect(cancellation.aborted).to.equal(true);
        expect(cancellation.signal.aborted).to.equal(true);
        expect(cancellation.signal.reason).to.equal('client cancelled');
      });
    });

    context('when a handler holds the signal', () => {
      it('aborts it with the reason', () => {
        const cancellation = new Cancellation();
        const { signal } = cancellation;
        const reasons: unknown[] = [];
        signal.addEventListener('abort', () => reasons.push(signal.reason));
        const reason = new Error('closing');
        cancellation.cancel(reason);
        expect(reasons).to.deep.equal([reason]);
        expect(cancellation.reason).to.equal(reason);
      });
    });

    context('when cancelled twice', () => {
      it('keeps the first reason and tells listeners once', () => {
        const cancellation = new Cancellation();
        let told = 0;
        cancellation.onCancel(() => { told += 1; });
        cancellation.cancel('first');
        cancellation.cancel('second');
        expect(cancellation.reason).to.equal('first');
        expect(cancellation.signal.reason).to.equal('first');
        expect(told).to.equal(1);
      });
    });
  });

  describe('#aborted', () => {
    it('is false while it runs, and the reason undefined', () => {
      const cancellation = new Cancellation();
      expect(cancellation.aborted).to.equal(false);
      expect(cancellation.reason).to.equal(undefined);
      expect(cancellation.signal.aborted).to.equal(false);
    });
  });

  describe('#onCancel', () => {
    context('when it is cancelled later', () => {
      it('runs every listener once', () => {
        const cancellation = new Cancellation();
        const heard: string[] = [];
        cancellation.onCancel(() => heard.push('a'));
        cancellation.onCancel(() => heard.push('b'));
        cancellation.cancel();
        expect(heard).to.deep.equal(['a', 'b']);
      });
    });

    context('when it was already cancelled', () => {
      it('runs the listener at once', () => {
        const cancellation = new Cancellation();
        cancellation.cancel();
        let ran = false;
        cancellation.onCancel(() => { ran = true; });
        expect(ran).to.equal(true);
      });
    });

    context('when the listener stopped listening', () => {
      it('is not run', () => {
        const cancellation = new Cancellation();
        let ran = false;
        const stop = cancellation.onCancel(() => { ran = true; });
        stop();
        cancellation.cancel();
        expect(ran).to.equal(false);
      });
    });
  });
});
