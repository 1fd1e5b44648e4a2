import { expect } from 'chai';
import { filterAsSent, SubscriptionHub } from '../../../lib/protocol/events/subscription-hub';

const NOTICE = 'notifications/tasks';

/** A stream's deliveries, as `[method, params]`. */
function stream() {
  const heard: Array<[string, unknown]> = [];
  return { heard, deliver: (method: string, params: unknown) => heard.push([method, params]) };
}

describe('SubscriptionHub', () => {
  describe('#watches', () => {
    it('says whether an open stream names the id under the key, until the last one naming it is removed', () => {
      const hub = new SubscriptionHub();
      expect(hub.watches('taskIds', 't1')).to.equal(false);
      const removeFirst = hub.add({ extensionIds: { taskIds: ['t1', 't1', 't2'] } }, 'ada', stream().deliver, () => {});
      const removeSecond = hub.add({ extensionIds: { taskIds: ['t1'] } }, 'ada', stream().deliver, () => {});
      hub.add({ toolsListChanged: true }, 'ada', stream().deliver, () => {});
      expect([hub.watches('taskIds', 't1'), hub.watches('taskIds', 't2'), hub.watches('taskIds', 't3')]).to.deep.equal([true, true, false]);
      removeFirst();
      expect([hub.watches('taskIds', 't1'), hub.watches('taskIds', 't2')]).to.deep.equal([true, false]);
      removeSecond();
      expect(hub.watches('taskIds', 't1')).to.equal(false);
    });

    it('forgets every id once the hub closes every stream', () => {
      const hub = new SubscriptionHub();
      hub.add({ extensionIds: { taskIds: ['t1'] } }, 'ada', stream().deliver, () => {});
      hub.closeAll();
      expect(hub.watches('taskIds', 't1')).to.equal(false);
    });
  });

  describe('#notify', () => {
    it('delivers once to each stream naming the id under the key whose principal may know it; the others hear nothing', () => {
      const hub = new SubscriptionHub();
      const [named, twice, other, unnamed, everything] = [stream(), stream(), stream(), stream(), stream()];
      hub.add({ extensionIds: { taskIds: ['t1'] } }, 'ada', named.deliver, () => {});
      hub.add({ extensionIds: { taskIds: ['t1', 't1'] } }, 'ada', twice.deliver, () => {});
      hub.add({ extensionIds: { taskIds: ['t1'] } }, 'mallory', other.deliver, () => {});
      hub.add({ extensionIds: { taskIds: ['t2'] } }, 'ada', unnamed.deliver, () => {});
      hub.add({ toolsListChanged: true, resourceSubscriptions: ['x://t1'] }, 'ada', everything.deliver, () => {});
      const task = { taskId: 't1', status: 'working' };
      hub.notify('taskIds', 't1', NOTICE, task, (principal) => principal === 'ada');
      expect(named.heard).to.deep.equal([[NOTICE, task]]);
      expect(twice.heard).to.deep.equal([[NOTICE, task]]);
      expect([other.heard, unnamed.heard, everything.heard]).to.deep.equal([[], [], []]);
    });

    it('delivers nothing to a stream once it is removed', () => {
      const hub = new SubscriptionHub();
      const gone = stream();
      hub.add({ extensionIds: { taskIds: ['t1'] } }, 'ada', gone.deliver, () => {})();
      hub.notify('taskIds', 't1', NOTICE, { taskId: 't1' }, () => true);
      expect(gone.heard).to.deep.equal([]);
    });
  });

  describe('#watches under another key', () => {
    it('keeps each key\'s ids apart', () => {
      const hub = new SubscriptionHub();
      hub.add({ extensionIds: { taskIds: ['t1'] } }, 'ada', stream().deliver, () => {});
      expect([hub.watches('taskIds', 't1'), hub.watches('jobIds', 't1')]).to.deep.equal([true, false]);
    });
  });

  describe('filterAsSent', () => {
    it('shows each extension\'s ids under its own key, beside the protocol\'s filter', () => {
      expect(filterAsSent({ toolsListChanged: true, extensionIds: { taskIds: ['t1'] } })).to.deep.equal({ toolsListChanged: true, taskIds: ['t1'] });
    });
  });
});
