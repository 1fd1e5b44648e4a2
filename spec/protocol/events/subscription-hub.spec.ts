import { expect } from 'chai';
import { SubscriptionHub, TASK_NOTIFICATION } from '../../../lib/protocol/events/subscription-hub';

/** A stream's deliveries, as `[method, params]`. */
function stream() {
  const heard: Array<[string, unknown]> = [];
  return { heard, deliver: (method: string, params: unknown) => heard.push([method, params]) };
}

describe('SubscriptionHub', () => {
  describe('#watches', () => {
    it('says whether an open stream names the task id, until the last one naming it is removed', () => {
      const hub = new SubscriptionHub();
      expect(hub.watches('t1')).to.equal(false);
      const removeFirst = hub.add({ taskIds: ['t1', 't1', 't2'] }, 'ada', stream().deliver, () => {});
      const removeSecond = hub.add({ taskIds: ['t1'] }, 'ada', stream().deliver, () => {});
      hub.add({ toolsListChanged: true }, 'ada', stream().deliver, () => {});
      expect([hub.watches('t1'), hub.watches('t2'), hub.watches('t3')]).to.deep.equal([true, true, false]);
      removeFirst();
      expect([hub.watches('t1'), hub.watches('t2')]).to.deep.equal([true, false]);
      removeSecond();
      expect(hub.watches('t1')).to.equal(false);
    });

    it('forgets every task id once the hub closes every stream', () => {
      const hub = new SubscriptionHub();
      hub.add({ taskIds: ['t1'] }, 'ada', stream().deliver, () => {});
      hub.closeAll();
      expect(hub.watches('t1')).to.equal(false);
    });
  });

  describe('#taskChanged', () => {
    it('delivers the task once to each stream naming it whose principal owns it; the others hear nothing', () => {
      const hub = new SubscriptionHub();
      const [named, twice, other, unnamed, everything] = [stream(), stream(), stream(), stream(), stream()];
      hub.add({ taskIds: ['t1'] }, 'ada', named.deliver, () => {});
      hub.add({ taskIds: ['t1', 't1'] }, 'ada', twice.deliver, () => {});
      hub.add({ taskIds: ['t1'] }, 'mallory', other.deliver, () => {});
      hub.add({ taskIds: ['t2'] }, 'ada', unnamed.deliver, () => {});
      hub.add({ toolsListChanged: true, resourceSubscriptions: ['x://t1'] }, 'ada', everything.deliver, () => {});
      const task = { taskId: 't1', status: 'working' };
      hub.taskChanged('t1', task, (principal) => principal === 'ada');
      expect(named.heard).to.deep.equal([[TASK_NOTIFICATION, task]]);
      expect(twice.heard).to.deep.equal([[TASK_NOTIFICATION, task]]);
      expect([other.heard, unnamed.heard, everything.heard]).to.deep.equal([[], [], []]);
    });

    it('delivers nothing to a stream once it is removed', () => {
      const hub = new SubscriptionHub();
      const gone = stream();
      hub.add({ taskIds: ['t1'] }, 'ada', gone.deliver, () => {})();
      hub.taskChanged('t1', { taskId: 't1' }, () => true);
      expect(gone.heard).to.deep.equal([]);
    });
  });
});
