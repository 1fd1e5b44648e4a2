import 'reflect-metadata';
import { expect } from 'chai';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { Redis } from 'ioredis';
import { PhantomServer, SILENT_DIAGNOSTICS, Tool } from '../../lib';
import type { HttpListener } from '../../lib/entries/http';
import { redis } from '../../lib/entries/redis';
import { uniqueId } from '../../lib/core/unique-id';
import { connectHttpListening } from '../integration/support/sdk-clients';
import { requireRedis, sharedRedis } from '../support/redis.fixture';
import { eventually } from '../support/eventually';
import { Cluster } from './support/cluster';

describe('replicas changing what they serve at runtime', function () {
  this.timeout(60_000);
  requireRedis();
  let cluster: Cluster;

  before(async () => {
    cluster = await new Cluster((await sharedRedis()).url, `lists-${uniqueId()}:`).start();
  });

  after(async () => {
    await cluster?.stop();
  });

  context('when one node adds a tool', () => {
    it('tells the clients of every node that the tool list changed', async () => {
      const clients = await Promise.all([0, 1, 2].map(() => connectHttpListening(cluster.url)));
      const heard = clients.map(() => 0);
      clients.forEach(({ client }, i) => client.setNotificationHandler(ToolListChangedNotificationSchema, () => void heard[i]++));
      try {
        // Each client's GET stream lands on a node of its own (round robin), so the change made
        // on one node must cross to the others.
        const grew = await clients[0].client.callTool({ name: 'grow' });
        expect((grew.content as { text: string }[])[0].text).to.match(/^node-[abc] grew$/);
        await eventually('every client heard tools/list_changed', () => heard.every((count) => count >= 1));
        expect(heard).to.deep.equal([1, 1, 1]);
      } finally {
        await Promise.all(clients.map(({ client }) => client.close()));
      }
    });
  });

  context('when someone who can PUBLISH to the Redis forges list changes and the replicas have a busSecret', () => {
    class Added {
      @Tool({ description: 'Added at runtime' })
      added() {
        return 'added';
      }
    }

    it('the clients hear only the genuine change', async () => {
      const prefix = `forged-${uniqueId()}:`;
      const url = (await sharedRedis()).url;
      const server = new PhantomServer({
        name: 'signed', version: '1', providers: [], diagnostics: SILENT_DIAGNOSTICS,
        store: redis({ url, keyPrefix: prefix, busSecret: 'a-secret-only-the-replicas-are-given!' }),
      });
      const listener: HttpListener = await server.listen({ port: 0 });
      const forger = new Redis(url);
      const { client } = await connectHttpListening(listener.url);
      let heard = 0;
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => void heard++);
      try {
        for (let i = 0; i < 20; i++) await forger.publish(`${prefix}bus:broadcast`, JSON.stringify({ kind: 'list-changed', list: 'tools' }));
        // Published after the forgeries on the same channel: once it is heard, they would have been.
        server.add(Added);
        await eventually('the client heard the genuine tools/list_changed', () => heard >= 1);
        expect(heard).to.equal(1);
      } finally {
        await client.close();
        forger.disconnect();
        await listener.close();
        await server.close();
      }
    });
  });
});
