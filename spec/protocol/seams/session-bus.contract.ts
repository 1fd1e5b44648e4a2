import { expect } from 'chai';
import type { ServerMessage, SessionBus, SessionMessage } from '../../../lib/entries/seams';

export interface SessionBusHarness {
  /**
   * Buses of one deployment: `sending` publishes, `hearing` subscribes. In one process they are
   * the same bus; a bus between processes (Redis) gives two, as two replicas would hold.
   */
  open(): Promise<{ sending: SessionBus; hearing: SessionBus }>;
  /** Resolves once everything published so far has been delivered (nothing to wait for in process). */
  delivered?(): Promise<void>;
}

const ended: SessionMessage = { kind: 'ended' };
const cancel = (requestId: number): SessionMessage => ({ kind: 'cancel', requestId, reason: 'spec' });
const toolsChanged: ServerMessage = { kind: 'list-changed', list: 'tools' };

/**
 * The behaviour every `SessionBus` owes the protocol, run against `harness`: call it inside a
 * `describe` of the bus. A message meant for one session reaches that session's holders only:
 * a bus that leaks one session's messages to another leaks requests and answers between users.
 */
export function behavesAsSessionBus(harness: SessionBusHarness): void {
  let sending: SessionBus;
  let hearing: SessionBus;

  const delivered = () => harness.delivered?.() ?? Promise.resolve();

  /** What `sessionId`'s listener hears from now on (once the subscription is live). */
  async function heardBy(sessionId: string): Promise<{ messages: SessionMessage[]; stop: () => void }> {
    const messages: SessionMessage[] = [];
    const stop = hearing.subscribe(sessionId, (message) => { messages.push(message); });
    await stop.ready;
    return { messages, stop };
  }

  async function heardByEveryone(): Promise<{ messages: ServerMessage[]; stop: () => void }> {
    const messages: ServerMessage[] = [];
    const stop = hearing.onBroadcast((message) => { messages.push(message); });
    await stop.ready;
    return { messages, stop };
  }

  beforeEach(async () => {
    ({ sending, hearing } = await harness.open());
  });

  afterEach(async () => {
    await hearing.close();
    if (sending !== hearing) await sending.close();
  });

  describe('#publish', () => {
    context('when two sessions are subscribed', () => {
      it('reaches the listeners of that session, never those of the other', async () => {
        const alice = await heardBy('alice');
        const bob = await heardBy('bob');
        await sending.publish('alice', cancel(1));
        await sending.publish('bob', cancel(2));
        await sending.publish('alice', ended);
        await delivered();
        expect(alice.messages).to.deep.equal([cancel(1), ended]);
        expect(bob.messages).to.deep.equal([cancel(2)]);
      });
    });

    context('when a session has several listeners', () => {
      it('reaches each of them', async () => {
        const first = await heardBy('alice');
        const second = await heardBy('alice');
        await sending.publish('alice', ended);
        await delivered();
        expect([first.messages, second.messages]).to.deep.equal([[ended], [ended]]);
      });
    });

    context('when nobody holds the session', () => {
      it('drops the message, and a later listener does not hear it', async () => {
        await sending.publish('nobody', ended);
        await delivered();
        const late = await heardBy('nobody');
        await delivered();
        expect(late.messages).to.deep.equal([]);
      });
    });

    context('when a listener unsubscribes while it is being called', () => {
      it('still delivers to the other listeners of the session, and no more to it', async () => {
        const heard: string[] = [];
        let stopFirst: () => void = () => {};
        const first = hearing.subscribe('alice', () => { heard.push('first'); stopFirst(); });
        stopFirst = first;
        await Promise.all([first.ready, hearing.subscribe('alice', () => { heard.push('second'); }).ready]);
        await sending.publish('alice', cancel(1));
        await sending.publish('alice', cancel(2));
        await delivered();
        expect(heard).to.deep.equal(['first', 'second', 'second']);
      });
    });
  });

  describe('#subscribe', () => {
    context('when a listener throws or rejects', () => {
      it('still delivers to the session\'s other listeners, and the sender does not fail', async () => {
        const throwing = hearing.subscribe('alice', () => { throw new Error('boom'); });
        const rejecting = hearing.subscribe('alice', async () => { throw new Error('boom'); });
        await Promise.all([throwing.ready, rejecting.ready]);
        const staying = await heardBy('alice');
        await sending.publish('alice', cancel(1));
        await sending.publish('alice', cancel(2));
        await delivered();
        expect(staying.messages).to.deep.equal([cancel(1), cancel(2)]);
      });
    });

    context('when the listener stops', () => {
      it('hears nothing more, and the session\'s other listeners go on hearing', async () => {
        const stopped = await heardBy('alice');
        const staying = await heardBy('alice');
        await sending.publish('alice', cancel(1));
        await delivered();
        stopped.stop();
        await sending.publish('alice', cancel(2));
        await delivered();
        expect(stopped.messages).to.deep.equal([cancel(1)]);
        expect(staying.messages).to.deep.equal([cancel(1), cancel(2)]);
      });

      it('may be stopped twice, and a listener subscribed again afterwards hears', async () => {
        const first = await heardBy('alice');
        first.stop();
        const again = await heardBy('alice');
        first.stop();
        await sending.publish('alice', ended);
        await delivered();
        expect(again.messages).to.deep.equal([ended]);
      });
    });
  });

  describe('#broadcast', () => {
    context('when several listeners hear broadcasts', () => {
      it('reaches every one of them, and no session listener', async () => {
        const one = await heardByEveryone();
        const two = await heardByEveryone();
        const session = await heardBy('alice');
        await sending.broadcast(toolsChanged);
        await sending.broadcast({ kind: 'resource-updated', uri: 'x://a' });
        await delivered();
        expect(one.messages).to.deep.equal([toolsChanged, { kind: 'resource-updated', uri: 'x://a' }]);
        expect(two.messages).to.deep.equal(one.messages);
        expect(session.messages).to.deep.equal([]);
      });
    });

    context('when a listener unsubscribes while it is being called', () => {
      it('still delivers to the others', async () => {
        const heard: string[] = [];
        let stopFirst: () => void = () => {};
        const first = hearing.onBroadcast(() => { heard.push('first'); stopFirst(); });
        stopFirst = first;
        await Promise.all([first.ready, hearing.onBroadcast(() => { heard.push('second'); }).ready]);
        await sending.broadcast(toolsChanged);
        await sending.broadcast(toolsChanged);
        await delivered();
        expect(heard).to.deep.equal(['first', 'second', 'second']);
      });
    });
  });

  describe('#onBroadcast', () => {
    context('when the listener stops', () => {
      it('hears nothing more', async () => {
        const stopped = await heardByEveryone();
        stopped.stop();
        await sending.broadcast(toolsChanged);
        await delivered();
        expect(stopped.messages).to.deep.equal([]);
      });
    });
  });

  describe('#close', () => {
    context('when listeners were subscribed', () => {
      it('stops every delivery, to sessions and to broadcast listeners', async () => {
        const session = await heardBy('alice');
        const everyone = await heardByEveryone();
        await hearing.close();
        // Publishing on a closed bus may refuse or do nothing; it must not deliver.
        await sending.publish('alice', ended).catch(() => undefined);
        await sending.broadcast(toolsChanged).catch(() => undefined);
        await delivered();
        expect(session.messages).to.deep.equal([]);
        expect(everyone.messages).to.deep.equal([]);
      });
    });
  });
}
