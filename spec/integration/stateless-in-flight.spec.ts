import 'reflect-metadata';
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { McpError } from '@modelcontextprotocol/sdk/types.js';
import { Context, PhantomServer, SILENT_DIAGNOSTICS, Tool } from '../../lib';
import { connect } from 'phantom-mcp/testing';

/** Resolves once `condition` holds (checked every few milliseconds; the spec's timeout bounds it). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

/** Counts the calls running in its server; each runs until the client cancels it. */
class Holder {
  running = 0;

  @Tool({ description: 'Runs until cancelled' })
  async hold(_args: object, ctx: Context) {
    this.running += 1;
    await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
    this.running -= 1;
    return 'released';
  }
}

/** A call the test can end: aborting it makes the official client send notifications/cancelled. */
function holding(client: Client) {
  const controller = new AbortController();
  const settled = client.callTool({ name: 'hold' }, undefined, { signal: controller.signal }).then(
    (result) => ({ result }),
    (error: McpError) => ({ error }),
  );
  return { settled, cancel: () => controller.abort() };
}

describe('maxInFlightPerSession on a pipe, stateless era (2026-07-28)', () => {
  let server: PhantomServer;
  let holder: Holder;
  let clients: Client[];

  beforeEach(() => {
    server = new PhantomServer({ name: 'holder', version: '1', providers: [Holder], maxInFlightPerSession: 3, diagnostics: SILENT_DIAGNOSTICS, shutdownTimeoutMs: 50 });
    holder = server.container.resolve(Holder);
    clients = [];
  });

  afterEach(async () => {
    for (const client of clients) await client.close();
    await server.close();
  });

  const open = async () => {
    const client = await connect(server, { era: 'stateless' });
    clients.push(client);
    return client;
  };

  context('when the connection already runs as many requests as the limit', () => {
    it('refuses the next call with -32010 at once, without running it, and accepts again once one is cancelled (official client)', async () => {
      const client = await open();
      const calls = [holding(client), holding(client), holding(client)];
      await until(() => holder.running === 3);

      const beyond = holding(client);
      let outcome: { result?: unknown; error?: McpError } | undefined;
      void beyond.settled.then((settled) => { outcome = settled; });
      await until(() => outcome !== undefined || holder.running > 3);
      expect(holder.running, 'calls running on the connection').to.equal(3);
      expect(outcome?.error?.code).to.equal(-32010);
      expect(outcome?.error?.message).to.contain('Too many requests in flight: this connection already has 3 running');
      expect(outcome?.error?.data).to.deep.equal({ maxInFlightPerSession: 3 });

      calls[0].cancel();
      await until(() => holder.running === 2);
      const again = holding(client);
      await until(() => holder.running === 3);
      for (const call of [...calls, again]) call.cancel();
      await Promise.all([...calls, again].map((call) => call.settled));
    });

    it('counts per connection: another client on its own pipe still runs its calls', async () => {
      const busy = await open();
      const calls = [holding(busy), holding(busy), holding(busy)];
      await until(() => holder.running === 3);
      const other = await open();
      const others = [holding(other), holding(other), holding(other)];
      await until(() => holder.running === 6);
      for (const call of [...calls, ...others]) call.cancel();
      await Promise.all([...calls, ...others].map((call) => call.settled));
    });
  });

  context('when the server is given no limit', () => {
    it('applies the default of 100 per connection (official client)', async () => {
      await server.close();
      server = new PhantomServer({ name: 'holder', version: '1', providers: [Holder], diagnostics: SILENT_DIAGNOSTICS, shutdownTimeoutMs: 50 });
      holder = server.container.resolve(Holder);
      const client = await open();
      const calls = Array.from({ length: 100 }, () => holding(client));
      await until(() => holder.running === 100);
      const beyond = holding(client);
      let outcome: { result?: unknown; error?: McpError } | undefined;
      void beyond.settled.then((settled) => { outcome = settled; });
      await until(() => outcome !== undefined || holder.running > 100);
      expect(holder.running).to.equal(100);
      expect(outcome?.error?.code).to.equal(-32010);
      for (const call of calls) call.cancel();
      await Promise.all(calls.map((call) => call.settled));
    });
  });
});
