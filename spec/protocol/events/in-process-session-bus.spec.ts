import { expect } from 'chai';
import { InProcessSessionBus } from '../../../lib';
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
