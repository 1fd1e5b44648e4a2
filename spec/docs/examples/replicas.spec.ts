import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { closeOnSignals, createReplica, serveReplica } from '../../../docs/examples/replicas';
import type { PhantomServer } from '../../../lib';
import type { HttpListener } from '../../../lib/entries/http';
import { freePort } from '../../support/free-port';
import { sharedRedis } from '../../support/redis.fixture';

/**
 * A load balancer in the client's fetch: each request goes to the next replica still in `replicas`,
 * in turn, and `served` records which one took it.
 */
function balancer(replicas: HttpListener[]) {
  const served: string[] = [];
  let turn = 0;
  const fetchVia = async (input: string | URL, init?: RequestInit): Promise<Response> => {
    const replica = replicas[turn++ % replicas.length];
    served.push(replica.url);
    return fetch(`http://127.0.0.1:${replica.port}${new URL(input).pathname}`, init);
  };
  return { served, fetch: fetchVia };
}

/** docs/guide/replicas.md, run as the page teaches: two replicas on one real Redis (REDIS_URL), in one process. */
describe('docs/examples/replicas.ts (the replicas guide)', () => {
  let a: PhantomServer;
  let b: PhantomServer;
  let replicaA: HttpListener;
  let replicaB: HttpListener;
  let removeSignalHandlers: (() => void) | undefined;

  before(async () => {
    const { url } = await sharedRedis();
    const keyPrefix = `docs-replicas-${randomUUID()}:`; // specs share the Redis; keep apart by prefix
    a = createReplica(url, keyPrefix);
    b = createReplica(url, keyPrefix);
    replicaA = await serveReplica(a, await freePort(), { drainDelayMs: 0 });
    replicaB = await serveReplica(b, await freePort(), { drainDelayMs: 0 });
  });

  after(async () => {
    removeSignalHandlers?.();
    await Promise.all([a?.close(), b?.close()]);
  });

  it('answers the probes: live, and ready while Redis answers', async () => {
    for (const replica of [replicaA, replicaB]) {
      const origin = `http://127.0.0.1:${replica.port}`;
      const live = await fetch(`${origin}/healthz`);
      expect([live.status, await live.json()]).to.deep.equal([200, { status: 'ok' }]);
      const ready = await fetch(`${origin}/readyz`);
      expect([ready.status, await ready.json()]).to.deep.equal([200, { status: 'ready' }]);
    }
  });

  it('carries one session across both replicas, and on the other one after SIGTERM closed the first', async () => {
    const replicas = [replicaA, replicaB];
    const lb = balancer(replicas);
    const client = new Client({ name: 'docs-spec', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL('http://balancer.invalid/mcp'), { fetch: lb.fetch });
    await client.connect(transport); // initialize on one replica, notifications/initialized on the other
    for (const city of ['Lisbon', 'Oslo', 'Quito', 'Perth']) {
      const result = await client.callTool({ name: 'forecast', arguments: { city } });
      expect(result.structuredContent).to.deep.equal({ city, sky: 'clear' });
    }
    expect(new Set(lb.served)).to.deep.equal(new Set([replicaA.url, replicaB.url]));

    let exitCode: number | undefined;
    const exited = new Promise<void>((resolve) => {
      removeSignalHandlers = closeOnSignals(a, (code) => { exitCode = code; resolve(); });
    });
    replicas.splice(0, 1); // the orchestrator takes replica A out of the balancer, then stops it
    process.emit('SIGTERM');
    await exited;
    expect(exitCode).to.equal(0);
    const refused = await fetch(`http://127.0.0.1:${replicaA.port}/healthz`).then(() => 'answered', () => 'refused');
    expect(refused).to.equal('refused');

    const served = lb.served.length;
    const after = await client.callTool({ name: 'forecast', arguments: { city: 'Nairobi' } });
    expect(after.structuredContent).to.deep.equal({ city: 'Nairobi', sky: 'clear' });
    expect(lb.served.slice(served)).to.deep.equal([replicaB.url]);
    expect(transport.sessionId).to.be.a('string');
    await client.close();
  });
});
