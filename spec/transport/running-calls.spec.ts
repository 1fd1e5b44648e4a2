import { expect } from 'chai';
import { RunningCalls } from '../../lib/transport/running-calls';

describe('RunningCalls', () => {
  describe('#settled', () => {
    context('when no call is running', () => {
      it('resolves at once', async () => {
        await new RunningCalls<string>().settled(60_000);
      });
    });

    context('when the last call finishes before the deadline', () => {
      it('resolves then', async () => {
        const calls = new RunningCalls<string>();
        calls.add('a');
        calls.add('b');
        const settled = calls.settled(60_000);
        calls.delete('a');
        calls.delete('b');
        await settled;
        expect(calls.size).to.equal(0);
      });
    });

    context('when calls are still running at the deadline', () => {
      it('resolves with them still there, for the caller to give up on', async () => {
        const calls = new RunningCalls<string>();
        calls.add('stuck');
        await calls.settled(10);
        expect([...calls]).to.deep.equal(['stuck']);
      });
    });
  });

  describe('iteration', () => {
    it('walks a snapshot, so a call can be removed while the caller walks', () => {
      const calls = new RunningCalls<string>();
      calls.add('a');
      calls.add('b');
      const seen: string[] = [];
      for (const call of calls) { seen.push(call); calls.delete(call); }
      expect(seen).to.deep.equal(['a', 'b']);
      expect(calls.size).to.equal(0);
    });
  });
});
