import { expect } from 'chai';
import { PhantomError, type Diagnostics } from '../../lib';
import { RedisSessionBus, type RedisSessionBusOptions } from '../../lib/entries/redis';
import type { ServerMessage, SessionMessage } from '../../lib/entries/seams';
import { RedisConnections } from '../../lib/cluster/redis-connections';
import { behavesAsSessionBus } from '../protocol/seams/session-bus.contract';
import { ownRedis, requireRedis, sharedRedis } from '../support/redis.fixture';
import { deliveredBetween, nextEvent, specPrefix, subscribersOf } from '../support/redis-clients';

/** One replica's share of the deployment: its connections and its bus. */
interface Node {
  readonly connections: RedisConnections;
  readonly bus: RedisSessionBus;
}

const ended: SessionMessage = { kind: 'ended' };
const cancel = (requestId: number): SessionMessage => ({ kind: 'cancel', requestId });
const toolsChanged: ServerMessage = { kind: 'list-changed', list: 'tools' };
const failureOf = (promise: Promise<unknown>): Promise<unknown> => promise.then(() => undefined, (error: unknown) => error);

describe('RedisSessionBus', () => {
  requireRedis();

  let opened: RedisConnections[] = [];
  let prefix: string;

  /** A node on `url` (the shared Redis by default), under this test's prefix. */
  async function node(options: RedisSessionBusOptions = {}, url?: string): Promise<Node> {
    const connections = new RedisConnections({ url: url ?? (await sharedRedis()).url, keyPrefix: prefix });
    opened.push(connections);
    await connections.open();
    return { connections, bus: new RedisSessionBus(connections, options) };
  }

  /** Everything `from` published so far has reached the listeners of `to`. */
  const delivered = (from: Node, to: Node = from) => deliveredBetween(from.connections.commands, to.connections.channels, prefix);

  const sessionChannel = (sessionId: string) => `${prefix}bus:session:${sessionId}`;
  const broadcastChannel = () => `${prefix}bus:broadcast`;

  beforeEach(() => {
    prefix = specPrefix();
  });

  afterEach(async () => {
    await Promise.all(opened.map((connections) => connections.close()));
    opened = [];
  });

  context('as a SessionBus on one node (the bus that publishes hears through Redis)', () => {
    let only: Node;
    behavesAsSessionBus({
      open: async () => {
        only = await node();
        return { sending: only.bus, hearing: only.bus };
      },
      delivered: () => delivered(only),
    });
  });

  context('as a SessionBus between two nodes (each on its own connections)', () => {
    let sender: Node;
    let hearer: Node;
    behavesAsSessionBus({
      open: async () => {
        [sender, hearer] = await Promise.all([node(), node()]);
        return { sending: sender.bus, hearing: hearer.bus };
      },
      delivered: () => delivered(sender, hearer),
    });
  });

  describe('#publish', () => {
    context('when two nodes hold the same session', () => {
      it('reaches both, the sender\'s own listener included, once each', async () => {
        const [a, b] = await Promise.all([node(), node()]);
        const heardOnA: SessionMessage[] = [];
        const heardOnB: SessionMessage[] = [];
        await Promise.all([a.bus.subscribe('alice', (m) => { heardOnA.push(m); }).ready, b.bus.subscribe('alice', (m) => { heardOnB.push(m); }).ready]);
        await a.bus.publish('alice', cancel(1));
        await a.bus.publish('alice', ended);
        await Promise.all([delivered(a), delivered(a, b)]);
        expect(heardOnA).to.deep.equal([cancel(1), ended]);
        expect(heardOnB).to.deep.equal([cancel(1), ended]);
      });
    });

    context('when the message is larger than maxMessageBytes', () => {
      it('rejects with a clear error and sends nothing', async () => {
        const [a, b] = await Promise.all([node({ maxMessageBytes: 200 }), node()]);
        const heard: SessionMessage[] = [];
        await b.bus.subscribe('alice', (m) => { heard.push(m); }).ready;
        const large: SessionMessage = { kind: 'notify', notification: { jsonrpc: '2.0', method: 'notifications/message', params: { data: 'x'.repeat(300) } } };
        const error = await failureOf(a.bus.publish('alice', large));
        await delivered(a, b);
        expect(error).to.be.instanceOf(PhantomError).with.property('code', 'redis_bus_message_too_large');
        expect((error as Error).message).to.match(/maxMessageBytes \(200\)/);
        expect(heard).to.deep.equal([]);
      });
    });
  });

  describe('#broadcast', () => {
    context('when three nodes listen', () => {
      it('reaches every node once, the sender included', async () => {
        const nodes = await Promise.all([node(), node(), node()]);
        const heard = nodes.map(() => [] as ServerMessage[]);
        await Promise.all(nodes.map((n, i) => n.bus.onBroadcast((m) => { heard[i].push(m); }).ready));
        await nodes[1].bus.broadcast(toolsChanged);
        await Promise.all(nodes.map((n) => delivered(nodes[1], n)));
        expect(heard).to.deep.equal([[toolsChanged], [toolsChanged], [toolsChanged]]);
      });
    });
  });

  describe('#subscribe', () => {
    context('while this node has a listener for the session', () => {
      it('holds the session\'s channel in Redis, once for all its listeners, and leaves it with the last', async () => {
        const a = await node();
        const first = a.bus.subscribe('alice', () => {});
        const second = a.bus.subscribe('alice', () => {});
        await Promise.all([first.ready, second.ready]);
        const whileBoth = await subscribersOf(a.connections.commands, sessionChannel('alice'));
        first();
        await delivered(a);
        const whileOne = await subscribersOf(a.connections.commands, sessionChannel('alice'));
        second();
        // Leaving is asynchronous: a listen queued after it resolves once Redis has done it.
        await delivered(a);
        expect([whileBoth, whileOne, await subscribersOf(a.connections.commands, sessionChannel('alice'))]).to.deep.equal([1, 1, 0]);
        expect(a.connections.channels.channelCount).to.equal(0);
      });
    });

    context('when the listener stops before its subscription is live', () => {
      it('hears nothing and leaves the channel', async () => {
        const a = await node();
        const heard: SessionMessage[] = [];
        const stop = a.bus.subscribe('alice', (m) => { heard.push(m); });
        stop();
        await stop.ready;
        await a.bus.publish('alice', ended);
        await delivered(a);
        expect(heard).to.deep.equal([]);
        expect(await subscribersOf(a.connections.commands, sessionChannel('alice'))).to.equal(0);
      });
    });

    context('when a message is on its way while listeners stop and the session is held again', () => {
      it('reaches none of the stopped listeners, the one whose SUBSCRIBE is still pending included', async () => {
        const a = await node();
        const heard = { first: [] as SessionMessage[], second: [] as SessionMessage[] };
        const first = a.bus.subscribe('alice', (m) => { heard.first.push(m); });
        await first.ready;
        // The message waits unread; the UNSUBSCRIBE and SUBSCRIBE asked for below are answered after it.
        a.connections.subscriber.stream.pause();
        await a.bus.publish('alice', ended);
        first();
        const second = a.bus.subscribe('alice', (m) => { heard.second.push(m); });
        second();
        a.connections.subscriber.stream.resume();
        await second.ready;
        await delivered(a);
        expect(heard).to.deep.equal({ first: [], second: [] });
        expect(await subscribersOf(a.connections.commands, sessionChannel('alice'))).to.equal(0);
      });
    });

    context('when what arrives on the session channel is not a session message', () => {
      it('drops each one, reports it, and the listener hears the next good message', async () => {
        const warnings: string[] = [];
        const diagnostics: Diagnostics = { warn: (line) => warnings.push(line), error: () => {} };
        const a = await node({ diagnostics, maxMessageBytes: 1000, warningRateLimit: { lines: 100 } });
        const heard: SessionMessage[] = [];
        await a.bus.subscribe('alice', (m) => { heard.push(m); }).ready;
        const bad = [
          'not json {',
          '[1, 2]',
          '"ended"',
          '{"kind":"unheard-of"}',
          '{"kind":"toString"}',
          '{"kind":"response","response":{"id":1}}',
          '{"kind":"response","response":{"jsonrpc":"2.0","id":1,"result":"not an object"}}',
          '{"kind":"cancel","requestId":{"nested":true}}',
          '{"kind":"cancel","requestId":1,"reason":42}',
          '{"kind":"notify","notification":{"jsonrpc":"2.0","id":7,"result":{}}}',
          JSON.stringify({ kind: 'cancel', requestId: 1, reason: 'x'.repeat(1000) }),
          JSON.stringify({ kind: 'notify', notification: { jsonrpc: '2.0', method: 'notifications/message', params: { data: 'é'.repeat(600) } } }),
          '{"kind":"standalone-moved","holder":"node-b"}',
          '{"kind":"standalone-moved","holder":7,"streamId":"stream-1"}',
          '{"kind":"standalone-moved","holder":"","streamId":"stream-1"}',
        ];
        for (const text of bad) await a.connections.commands.publish(sessionChannel('alice'), text);
        const moved: SessionMessage = { kind: 'standalone-moved', holder: 'node-b', streamId: 'stream-1' };
        await a.bus.publish('alice', moved);
        await a.bus.publish('alice', ended);
        await delivered(a);
        expect(heard).to.deep.equal([moved, ended]);
        expect(warnings).to.have.length(bad.length);
        expect(warnings.join('\n')).to.match(/not JSON/).and.match(/unknown kind/).and.match(/malformed "response"/).and.match(/larger than maxMessageBytes \(1000\)/);
      });
    });
  });

  describe('#onBroadcast', () => {
    context('when what arrives on the broadcast channel is not a server message', () => {
      it('drops it and the listeners hear the next good message', async () => {
        const a = await node({ diagnostics: { warn: () => {}, error: () => {} } });
        const heard: ServerMessage[] = [];
        await a.bus.onBroadcast((m) => { heard.push(m); }).ready;
        for (const text of ['{"kind":"list-changed","list":"constructor"}', '{"kind":"resource-updated"}', '{"kind":"ended"}', '']) {
          await a.connections.commands.publish(broadcastChannel(), text);
        }
        await a.bus.broadcast(toolsChanged);
        await delivered(a);
        expect(heard).to.deep.equal([toolsChanged]);
      });
    });
  });

  context('with a secret (busSecret)', () => {
    const SECRET = 'a-secret-of-at-least-thirty-two-bytes!';

    /** A listener of `sessionId` on `at`, with what it heard and what was reported dropped. */
    async function listening(at: Node, sessionId = 'alice'): Promise<SessionMessage[]> {
      const heard: SessionMessage[] = [];
      await at.bus.subscribe(sessionId, (m) => { heard.push(m); }).ready;
      return heard;
    }

    const recording = (warnings: string[]): Diagnostics => ({ warn: (message) => { warnings.push(message); }, error: () => {} });

    context('when a client of the Redis without it publishes on a session channel', () => {
      it('drops the message, reports it, and hears the nodes that sign with it', async () => {
        const warnings: string[] = [];
        const a = await node({ secret: SECRET, diagnostics: recording(warnings) });
        const b = await node({ secret: SECRET });
        const impostor = await node({ secret: 'another-secret-of-thirty-two-bytes-or-more' });
        const heard = await listening(a);
        await a.connections.commands.publish(sessionChannel('alice'), JSON.stringify(cancel(1)));
        await a.connections.commands.publish(sessionChannel('alice'), `${'A'.repeat(43)} ${JSON.stringify(cancel(2))}`);
        await impostor.bus.publish('alice', cancel(3));
        await b.bus.publish('alice', cancel(4));
        await b.bus.publish('alice', ended);
        await delivered(b, a);
        expect(heard).to.deep.equal([cancel(4), ended]);
        expect(warnings).to.have.length(3);
        expect(warnings.join('\n')).to.contain('a message without a valid MAC (busSecret)');
      });
    });

    context('when a signed message is replayed on another session\'s channel', () => {
      it('drops it: the signature covers the channel', async () => {
        const warnings: string[] = [];
        const a = await node({ secret: SECRET, diagnostics: recording(warnings) });
        const captured: string[] = [];
        const leave = await a.connections.channels.listen(sessionChannel('bob'), (text) => { captured.push(text); });
        await a.bus.publish('bob', cancel(7));
        await delivered(a);
        await leave();
        const heard = await listening(a);
        await a.connections.commands.publish(sessionChannel('alice'), captured[0]);
        await a.bus.publish('alice', ended);
        await delivered(a);
        expect(heard).to.deep.equal([ended]);
        expect(warnings.join('\n')).to.contain('without a valid MAC');
      });
    });

    context('when a signed message is replayed on its own channel', () => {
      it('drops the copy: each sender numbers its messages, and a number heard before is a replay', async () => {
        const warnings: string[] = [];
        const a = await node({ secret: SECRET, diagnostics: recording(warnings) });
        const b = await node({ secret: SECRET });
        const captured: string[] = [];
        const leave = await a.connections.channels.listen(sessionChannel('alice'), (text) => { captured.push(text); });
        const heard = await listening(a);
        const heardToo = await listening(a);
        await b.bus.publish('alice', cancel(7));
        await delivered(b, a);
        await leave();
        await a.connections.commands.publish(sessionChannel('alice'), captured[0]);
        await b.bus.publish('alice', ended);
        await delivered(b, a);
        // Each listener of the bus hears the genuine messages once, and neither hears the copy.
        expect(heard).to.deep.equal([cancel(7), ended]);
        expect(heardToo).to.deep.equal([cancel(7), ended]);
        expect(warnings).to.have.length(1);
        expect(warnings[0]).to.contain('heard before (a replay)');
      });
    });

    context('when a forged server message is published on the broadcast channel', () => {
      it('drops it', async () => {
        const a = await node({ secret: SECRET, diagnostics: recording([]) });
        const heard: ServerMessage[] = [];
        await a.bus.onBroadcast((m) => { heard.push(m); }).ready;
        await a.connections.commands.publish(broadcastChannel(), JSON.stringify({ kind: 'list-changed', list: 'resources' }));
        await a.bus.broadcast(toolsChanged);
        await delivered(a);
        expect(heard).to.deep.equal([toolsChanged]);
      });
    });

    context('when the secret is shorter than 32 bytes', () => {
      it('is refused at construction', async () => {
        const connections = new RedisConnections({ url: (await sharedRedis()).url, keyPrefix: prefix });
        expect(() => new RedisSessionBus(connections, { secret: 'short' })).to.throw(PhantomError, 'at least 32 bytes');
      });
    });
  });

  describe('#close', () => {
    context('when listeners were subscribed', () => {
      it('leaves every channel but not the shared connections, and refuses to send or listen afterwards', async () => {
        const a = await node();
        await Promise.all([a.bus.subscribe('alice', () => {}).ready, a.bus.onBroadcast(() => {}).ready]);
        await a.bus.close();
        const counts = await Promise.all([sessionChannel('alice'), broadcastChannel()].map((channel) => subscribersOf(a.connections.commands, channel)));
        expect(counts).to.deep.equal([0, 0]);
        expect(a.connections.channels.channelCount).to.equal(0);
        expect(await a.connections.ready()).to.equal(true);
        expect(await failureOf(a.bus.publish('alice', ended))).to.have.property('code', 'redis_bus_closed');
        expect(await failureOf(a.bus.subscribe('alice', () => {}).ready)).to.have.property('code', 'redis_bus_closed');
      });
    });
  });

  context('when Redis restarts', () => {
    it('fails to send and to subscribe while it is down, and carries every subscription on once it is back', async () => {
      const redis = await ownRedis();
      try {
        const [a, b] = await Promise.all([node({}, redis.url), node({}, redis.url)]);
        const clients = [a, b].flatMap(({ connections }) => [connections.commands, connections.subscriber]);
        const heard = { before: [] as SessionMessage[], during: [] as SessionMessage[], broadcasts: [] as ServerMessage[] };
        await Promise.all([
          b.bus.subscribe('before', (m) => { heard.before.push(m); }).ready,
          b.bus.onBroadcast((m) => { heard.broadcasts.push(m); }).ready,
        ]);

        const closed = clients.map((client) => nextEvent(client, 'close'));
        await redis.stop();
        await Promise.all(closed);
        const sendFailure = await failureOf(a.bus.publish('before', ended));
        const during = b.bus.subscribe('during', (m) => { heard.during.push(m); });
        const subscribeFailure = await failureOf(during.ready);

        const back = clients.map((client) => nextEvent(client, 'ready'));
        await redis.start();
        await Promise.all(back);
        // The bus tries again when its connection is back; a listen queued after that try resolves after it.
        await delivered(a, b);
        await a.bus.publish('before', cancel(1));
        await a.bus.publish('during', cancel(2));
        await a.bus.broadcast(toolsChanged);
        await delivered(a, b);

        expect(sendFailure).to.be.instanceOf(PhantomError).with.property('code', 'redis_unavailable');
        expect((sendFailure as Error).message).to.match(/^The session bus could not send "ended" to session before… on Redis: /);
        expect(subscribeFailure).to.be.instanceOf(PhantomError).with.property('code', 'redis_unavailable');
        expect(heard).to.deep.equal({ before: [cancel(1)], during: [cancel(2)], broadcasts: [toolsChanged] });
      } finally {
        await Promise.all(opened.map((connections) => connections.close()));
        opened = [];
        await redis.stop();
      }
    });
  });
});
