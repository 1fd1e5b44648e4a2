import { expect } from 'chai';
import { Cancellation } from '../../lib/core/cancellation';
import type { ErrorObject } from '../../lib/core/error-mapper';
import { isServerClosing, SHUTDOWN_ERRORS } from '../../lib/core/shutdown';
import { NO_EXCHANGE } from '../../lib/protocol/in-flight';
import { Drain, type Drainable } from '../../lib/transport/drain';

/** A request in flight that records how it was given up on. */
class Call implements Drainable {
  readonly exchange = NO_EXCHANGE;
  readonly cancellation = new Cancellation();
  givenUp?: { reason: Error; error: ErrorObject };

  constructor(readonly name: string, private readonly log: string[] = []) {}

  giveUp(reason: Error, error: ErrorObject): void {
    this.givenUp = { reason, error };
    this.log.push(`gave up ${this.name}`);
  }
}

describe('Drain', () => {
  describe('#stop', () => {
    it('makes the transport refuse new requests from then on', () => {
      const drain = new Drain<Call>();
      expect(drain.accepting).to.equal(true);
      drain.stop();
      expect(drain.accepting).to.equal(false);
    });
  });

  describe('#settle', () => {
    context('when every request finishes in time', () => {
      it('gives up on none', async () => {
        const drain = new Drain<Call>();
        const call = new Call('a');
        drain.track(call, false);
        const settled = drain.settle(60_000);
        drain.untrack(call, false);
        await settled;
        expect(call.givenUp).to.equal(undefined);
        expect(call.cancellation.aborted).to.equal(false);
      });
    });

    context('when requests are still running at the deadline', () => {
      it('gives up on each, with the shutdown error and a server-closing reason', async () => {
        const drain = new Drain<Call>();
        const calls = [new Call('a'), new Call('b')];
        for (const call of calls) drain.track(call, false);
        await drain.settle(0);
        for (const call of calls) {
          expect(call.givenUp?.error).to.equal(SHUTDOWN_ERRORS.cancelled);
          expect(isServerClosing(call.givenUp?.reason)).to.equal(true);
        }
      });
    });

    context('with listen streams open', () => {
      it('gives up on the requests, then cancels the listens, then ends the streams, then waits for the listens to answer', async () => {
        const log: string[] = [];
        const drain = new Drain<Call>();
        const listen = new Call('listen', log);
        listen.cancellation.onCancel(() => log.push('listen cancelled'));
        drain.track(listen, true);
        drain.track(new Call('call', log), false);
        await drain.settle(0, async () => {
          log.push('streams end');
          // The listen stream answers its cancellation, and is forgotten: the wait ends there.
          drain.untrack(listen, true);
        });
        expect(log).to.deep.equal(['gave up call', 'listen cancelled', 'streams end']);
        expect(listen.givenUp).to.equal(undefined);
      });
    });
  });

  describe('#abandon', () => {
    it('cancels listen streams with the reason given and gives up on no request', async () => {
      const drain = new Drain<Call>();
      const listen = new Call('listen');
      const call = new Call('call');
      drain.track(listen, true);
      drain.track(call, false);
      await drain.abandon(0, 'the pipe closed');
      expect(listen.cancellation.reason).to.equal('the pipe closed');
      expect(call.givenUp).to.equal(undefined);
      expect(call.cancellation.aborted).to.equal(false);
    });
  });

  describe('#running', () => {
    it('lists the requests being answered, not the listen streams', () => {
      const drain = new Drain<Call>();
      const listen = new Call('listen');
      const call = new Call('call');
      drain.track(listen, true);
      drain.track(call, false);
      expect([...drain.running()]).to.deep.equal([call]);
    });
  });
});
