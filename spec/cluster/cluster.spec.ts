import 'reflect-metadata';
import { expect } from 'chai';
import { ElicitationCompleteNotificationSchema, ElicitRequestSchema, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { uniqueId } from '../../lib/core/unique-id';
import { openEvents, openSession, post } from '../integration/support/raw-http';
import { connectHttp, connectHttpListening } from '../integration/support/sdk-clients';
import { ownRedis, requireRedis, sharedRedis, type RedisInstance } from '../support/redis.fixture';
import { eventually } from '../support/eventually';
import { Cluster } from './support/cluster';

const text = (result: unknown) => ((result as { content: { text: string }[] }).content[0]).text;

describe('three replicas on one Redis behind a round-robin proxy', function () {
  this.timeout(60_000);
  requireRedis();
  let cluster: Cluster;

  before(async () => {
    cluster = await new Cluster((await sharedRedis()).url, `cluster-${uniqueId()}:`).start();
  });

  after(async () => {
    await cluster?.stop();
  });

  context('when a client initialises on one node', () => {
    it('calls tools on the others, as one server', async () => {
      const { client } = await connectHttp(cluster.url);
      try {
        const names = new Set<string>();
        for (let i = 0; i < 6; i++) names.add(text(await client.callTool({ name: 'whoami' })));
        expect([...names].sort()).to.deep.equal(['node-a', 'node-b', 'node-c']);
      } finally {
        await client.close();
      }
    });
  });

  context('when a tool on one node elicits', () => {
    it('gets the client\'s answer that the proxy sent to another node', async () => {
      const { client } = await connectHttp(cluster.url, { elicitation: { form: {} } });
      client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { name: 'Ada' } }));
      try {
        const seen = cluster.proxy.routed.length;
        const answer = text(await client.callTool({ name: 'ask' }));
        const routed = cluster.proxy.routed.slice(seen);
        const asked = routed.find((r) => r.tool === 'ask')!;
        const answered = routed.find((r) => r.rpc === 'response')!;
        expect(answer).to.equal(`${cluster.nodes[asked.upstream].name} heard Ada`);
        expect(answered.upstream, 'the answer went to the node that asked').not.to.equal(asked.upstream);
      } finally {
        await client.close();
      }
    });
  });

  context('when a resource changes on any node', () => {
    it('tells the subscriber, whichever node holds its stream', async () => {
      const { client } = await connectHttpListening(cluster.url);
      const updates: string[] = [];
      client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updates.push(n.params.uri));
      try {
        await client.subscribeResource({ uri: 'cluster://board' });
        const touchedOn = new Set<string>();
        for (let i = 0; i < 3; i++) touchedOn.add(text(await client.callTool({ name: 'touch' })));
        expect(touchedOn.size, 'touched on three nodes').to.equal(3);
        await eventually('three updates', () => updates.length >= 3);
        expect(updates).to.deep.equal(['cluster://board', 'cluster://board', 'cluster://board']);
      } finally {
        await client.close();
      }
    });
  });

  context('when a URL elicitation completes on another node', () => {
    it('notifies the client through the node that sent the elicitation', async () => {
      const { client } = await connectHttpListening(cluster.url, { elicitation: { url: {} } });
      const completed: string[] = [];
      client.setNotificationHandler(ElicitationCompleteNotificationSchema, (n) => void completed.push(n.params.elicitationId));
      client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept' }));
      const id = `visit-${uniqueId()}`;
      try {
        const visited = text(await client.callTool({ name: 'visit', arguments: { id } }));
        const completer = text(await client.callTool({ name: 'complete', arguments: { id } }));
        expect(completer.split(' ')[0], 'completed elsewhere').not.to.equal(visited.split(':')[0]);
        await eventually('the completion notification', () => completed.length > 0);
        expect(completed).to.deep.equal([id]);
      } finally {
        await client.close();
      }
    });
  });

  context('when the node holding a client\'s stream is killed', () => {
    it('resumes the stream on another node with Last-Event-ID, missing no stored event, and goes on notifying', async () => {
      const session = { 'mcp-session-id': await openSession(cluster.url), 'mcp-protocol-version': '2025-11-25' };
      const call = (id: number, method: string, params: object) => post(cluster.url, { jsonrpc: '2.0', id, method, params }, session);
      expect((await call(1, 'resources/subscribe', { uri: 'cluster://board' })).status).to.equal(200);
      const seen = cluster.proxy.routed.length;
      const first = await openEvents(cluster.url, session);
      const holder = cluster.proxy.routed.slice(seen).find((r) => r.method === 'GET')!.upstream;
      for (let i = 0; i < 3; i++) await call(10 + i, 'tools/call', { name: 'touch', arguments: {} });
      const delivered = [await first.next(), await first.next(), await first.next()];
      expect(delivered.map((e) => e.message.method)).to.deep.equal(Array(3).fill('notifications/resources/updated'));

      await cluster.nodes[holder].kill();
      const resumedAt = cluster.proxy.routed.length;
      const resumed = await openEvents(cluster.url, { ...session, 'last-event-id': delivered[0].id });
      expect(cluster.proxy.routed.slice(resumedAt).find((r) => r.method === 'GET')!.upstream, 'resumed elsewhere').not.to.equal(holder);
      const replayed = [await resumed.next(), await resumed.next()];
      expect(replayed.map((e) => e.id)).to.deep.equal([delivered[1].id, delivered[2].id]);

      await call(20, 'tools/call', { name: 'touch', arguments: {} });
      expect((await resumed.next()).message).to.deep.include({ method: 'notifications/resources/updated' });
      resumed.close();
      first.close();
    });
  });

  context('when 50 sessions make 200 calls each through the proxy', () => {
    it('answers every call exactly once, with its own answer, and loses no session', async () => {
      const sessions = 50;
      const calls = 200;
      const clients = await Promise.all(Array.from({ length: sessions }, () => connectHttp(cluster.url)));
      try {
        const answers = await Promise.all(clients.map(async ({ client }, s) => {
          const mine: string[] = [];
          for (let c = 0; c < calls; c++) mine.push(text(await client.callTool({ name: 'echo', arguments: { text: `${s}/${c}` } })));
          return mine;
        }));
        answers.forEach((mine, s) => expect(mine).to.deep.equal(Array.from({ length: calls }, (_, c) => `${s}/${c}`)));
      } finally {
        await Promise.all(clients.map(({ client }) => client.close()));
      }
    });
  });
});

describe('replicas when Redis restarts', function () {
  this.timeout(60_000);
  requireRedis();
  let redis: RedisInstance;
  let cluster: Cluster;

  before(async () => {
    redis = await ownRedis();
    cluster = await new Cluster(redis.url, 'restart:', 2).start();
  });

  after(async () => {
    await cluster?.stop();
    await redis?.stop();
  });

  it('answers what needs Redis with 503 while it is away, serves the stateless era meanwhile, then serves new sessions without a restart of any node', async () => {
    const before = await connectHttp(cluster.url);
    expect(text(await before.client.callTool({ name: 'echo', arguments: { text: 'before' } }))).to.equal('before');
    await redis.stop();
    const failed = await before.client.callTool({ name: 'echo', arguments: { text: 'away' } }).then(() => undefined, (error: unknown) => error);
    expect(failed, 'a call while Redis is away fails').to.be.instanceOf(Error);
    const session = { 'mcp-session-id': before.transport.sessionId!, 'mcp-protocol-version': '2025-11-25' };
    const inSession = await post(cluster.url, { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'echo', arguments: { text: 'away' } } }, session);
    expect([inSession.status, inSession.headers.get('retry-after'), inSession.json.error.code], 'a session-era call: 503, retry').to.deep.equal([503, '1', -32603]);
    const opening = await post(cluster.url, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
    expect([opening.status, opening.headers.get('retry-after'), opening.json.id, opening.json.error.code], 'initialize: 503, retry').to.deep.equal([503, '1', 1, -32603]);
    const stateless = await post(cluster.url, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'stateless' }, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } }, { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'echo' });
    expect(stateless.json.result.content, 'the stateless era needs no shared session').to.deep.equal([{ type: 'text', text: 'stateless' }]);
    await before.client.close().catch(() => undefined);
    await redis.start();
    let after: Awaited<ReturnType<typeof connectHttp>> | undefined;
    for (let attempt = 0; attempt < 100 && !after; attempt++) {
      after = await connectHttp(cluster.url).catch(() => undefined);
      if (!after) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(after, 'a session opened after the restart').not.to.equal(undefined);
    try {
      for (let i = 0; i < 4; i++) expect(text(await after!.client.callTool({ name: 'echo', arguments: { text: `after ${i}` } }))).to.equal(`after ${i}`);
    } finally {
      await after!.client.close();
    }
  });
});
