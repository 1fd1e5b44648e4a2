import { expect } from 'chai';
import { InProcessSessionBus } from '../../../lib/entries/seams';
import { behavesAsSessionBus } from './session-bus.contract';

describe('InProcessSessionBus', () => {
  context('as a SessionBus', () => {
    behavesAsSessionBus({
      open: async () => {
        const bus = new InProcessSessionBus();
        return { sending: bus, hearing: bus };
      },
    });
  });

  describe('#broadcast', () => {
    context('when a listener delivers asynchronously', () => {
      it('resolves once it has delivered, so what the sender does next cannot overtake it', async () => {
        const bus = new InProcessSessionBus();
        const heard: string[] = [];
        bus.onBroadcast(async (message) => {
          await new Promise((resolve) => setImmediate(resolve));
          if (message.kind === 'resource-updated') heard.push(message.uri);
        });
        await bus.broadcast({ kind: 'resource-updated', uri: 'a://1' });
        heard.push('after');
        expect(heard).to.deep.equal(['a://1', 'after']);
      });
    });

    context('when a listener fails', () => {
      it('still delivers to the others and does not fail the sender', async () => {
        const bus = new InProcessSessionBus();
        const heard: string[] = [];
        bus.onBroadcast(() => { throw new Error('boom'); });
        bus.onBroadcast(async () => { throw new Error('boom'); });
        bus.onBroadcast(() => { heard.push('third'); });
        await bus.broadcast({ kind: 'list-changed', list: 'tools' });
        expect(heard).to.deep.equal(['third']);
      });
    });
  });

  describe('#publish', () => {
    context('when a listener delivers asynchronously', () => {
      it('resolves once it has delivered', async () => {
        const bus = new InProcessSessionBus();
        const heard: string[] = [];
        bus.subscribe('alice', async (message) => {
          await new Promise((resolve) => setImmediate(resolve));
          heard.push(message.kind);
        });
        await bus.publish('alice', { kind: 'ended' });
        heard.push('after');
        expect(heard).to.deep.equal(['ended', 'after']);
      });
    });
  });

  describe('#sessionCount', () => {
    context('when the last listener of a session stops', () => {
      it('forgets the session, so sessions nobody holds pin no memory', () => {
        const bus = new InProcessSessionBus();
        const stops = [bus.subscribe('alice', () => {}), bus.subscribe('alice', () => {}), bus.subscribe('bob', () => {})];
        expect(bus.sessionCount).to.equal(2);
        stops[0]();
        expect(bus.sessionCount).to.equal(2);
        stops[1]();
        stops[2]();
        expect(bus.sessionCount).to.equal(0);
      });
    });
  });
});
