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

  describe('#add and #delete', () => {
    it('count each call once, however it comes and goes', () => {
      const calls = new RunningCalls<string>();
      calls.add('a');
      calls.add('a');
      expect(calls.size).to.equal(1);
      calls.add('b');
      calls.delete('c');
      expect(calls.size).to.equal(2);
      calls.delete('a');
      calls.delete('a');
      expect([...calls]).to.deep.equal(['b']);
      calls.delete('b');
      expect(calls.size).to.equal(0);
      expect([...calls]).to.deep.equal([]);
    });

    it('keep the order the calls came in, a lone call and later ones alike', () => {
      const calls = new RunningCalls<string>();
      calls.add('a');
      calls.add('b');
      calls.delete('a');
      calls.add('c');
      expect([...calls]).to.deep.equal(['b', 'c']);
      calls.delete('b');
      calls.delete('c');
      calls.add('d');
      calls.add('e');
      calls.add('f');
      calls.delete('e');
      expect([...calls]).to.deep.equal(['d', 'f']);
    });
  });

  describe('#settled, with one call', () => {
    it('resolves when that call finishes', async () => {
      const calls = new RunningCalls<string>();
      calls.add('only');
      let settled = false;
      const waiting = calls.settled(60_000).then(() => { settled = true; });
      await Promise.resolve();
      expect(settled).to.equal(false);
      calls.delete('other');
      await Promise.resolve();
      expect(settled).to.equal(false);
      calls.delete('only');
      await waiting;
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
