import 'reflect-metadata';
import { expect } from 'chai';
import { SILENT_DIAGNOSTICS } from '../../../lib';
import type { JsonRpcMessage } from '../../../lib/core/jsonrpc';
import type { ListKind } from '../../../lib/core/methods';
import { ServerEvents } from '../../../lib/protocol/events/server-events';
import { InProcessSessionBus, type SessionMessage } from '../../../lib/protocol/seams/session-bus';
import { FakeStore, flush } from '../support/protocol-fakes';

/** One node's server events on a shared bus; `announce` plays the registry changing a list. */
function eventsOn(bus: InProcessSessionBus, store: FakeStore, canRead: (uri: string, principal: unknown) => boolean = () => true) {
  let changed: (kind: ListKind) => void = () => {};
  const events = new ServerEvents({ bus, store, canRead, onListChanged: (listener) => { changed = listener; return () => {}; }, diagnostics: SILENT_DIAGNOSTICS });
  return { events, announce: (kind: ListKind) => changed(kind) };
}

/** A store whose subscriber lists wait until the spec lets them go (as a Redis round trip takes its time). */
class SlowSubscribers extends FakeStore {
  private readonly waiting: (() => void)[] = [];
  override async subscribers(uri: string) {
    await new Promise<void>((resolve) => this.waiting.push(resolve));
    return super.subscribers(uri);
  }
  /** Answers the lists asked for so far. */
  answer(): void {
    for (const resolve of this.waiting.splice(0)) resolve();
  }
}

async function subscribed(store: FakeStore, id: string, uri: string, principal?: unknown) {
  await store.save({ id, protocolVersion: '2025-11-25', clientCapabilities: {}, initialized: true, subscriptions: [uri], principal, createdAt: 0, lastActiveAt: 0 });
}

describe('ServerEvents', () => {
  describe('when a list changes', () => {
    it('reaches the standalone streams of every node, and their listen streams asking for it', () => {
      const bus = new InProcessSessionBus();
      const store = new FakeStore();
      const here = eventsOn(bus, store);
      const there = eventsOn(bus, store);
      const streams: Record<string, JsonRpcMessage[]> = { here: [], there: [] };
      here.events.attach('s1', (m) => streams.here.push(m));
      there.events.attach('s2', (m) => streams.there.push(m));
      const listened: string[] = [];
      there.events.listeners.add({ toolsListChanged: true }, undefined, (method) => listened.push(method), () => {});
      here.announce('tools');
      expect(streams).to.deep.equal({
        here: [{ jsonrpc: '2.0', method: 'notifications/tools/list_changed' }],
        there: [{ jsonrpc: '2.0', method: 'notifications/tools/list_changed' }],
      });
      expect(listened).to.deep.equal(['notifications/tools/list_changed']);
    });
  });

  describe('#resourceUpdated', () => {
    it('tells the subscribed sessions whose principal may know the resource, on whichever node holds their stream', async () => {
      const bus = new InProcessSessionBus();
      const store = new FakeStore();
      const canRead = (_uri: string, principal: unknown) => principal !== 'eve';
      const here = eventsOn(bus, store, canRead);
      const there = eventsOn(bus, store, canRead);
      await subscribed(store, 'ada', 'x://doc', 'ada');
      await subscribed(store, 'eve', 'x://doc', 'eve');
      await subscribed(store, 'bob', 'x://other', 'bob');
      const seen: string[] = [];
      there.events.attach('ada', () => seen.push('ada'));
      there.events.attach('eve', () => seen.push('eve'));
      here.events.attach('bob', () => seen.push('bob'));
      await here.events.resourceUpdated('x://doc');
      await flush();
      expect(seen).to.deep.equal(['ada']);
    });
  });

  describe('#handOver', () => {
    context('when a resource update heard before is still being delivered', () => {
      it('forwards it to the node that holds the stream now, over the bus, and the new holder\'s sink gets it only from there', async () => {
        const bus = new InProcessSessionBus();
        const store = new SlowSubscribers();
        const here = eventsOn(bus, store);
        const there = eventsOn(bus, store);
        await subscribed(store, 'ada', 'x://doc');
        const seen: Record<string, JsonRpcMessage[]> = { here: [], there: [] };
        const forwarded: SessionMessage[] = [];
        bus.subscribe('ada', (message) => { forwarded.push(message); });
        here.events.attach('ada', (m) => seen.here.push(m));
        const delivering = here.events.resourceUpdated('x://doc');
        await flush();
        // The stream moves while both nodes read the subscribers.
        here.events.handOver('ada');
        there.events.attach('ada', (m) => seen.there.push(m));
        store.answer();
        await delivering;
        await flush();
        const update = { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'x://doc' } };
        expect(seen).to.deep.equal({ here: [], there: [] });
        expect(forwarded).to.deep.equal([{ kind: 'notify', notification: update }]);
        const later = here.events.resourceUpdated('x://doc');
        await flush();
        store.answer();
        await later;
        await flush();
        expect(seen, 'an update heard after the move').to.deep.equal({ here: [], there: [update] });
        expect(forwarded).to.have.length(1);
      });
    });
  });

  describe('#attach', () => {
    it('returns how to detach that sink only (a newer one for the session stays)', () => {
      const { events } = eventsOn(new InProcessSessionBus(), new FakeStore());
      const detachOld = events.attach('s', () => {});
      events.attach('s', () => {});
      detachOld();
      expect(events.deliver('s', { jsonrpc: '2.0', method: 'x' })).to.equal(true);
      events.detach('s');
      expect(events.deliver('s', { jsonrpc: '2.0', method: 'x' })).to.equal(false);
    });
  });
});
