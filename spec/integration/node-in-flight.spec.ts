import 'reflect-metadata';
import { expect } from 'chai';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { PhantomServer, SILENT_DIAGNOSTICS, Tool, type Context } from '../../lib';
import { Gate } from '../support/gate';
import { connectInMemory } from './support/sdk-clients';

const gates: Gate[] = [];

class Waiting {
  @Tool({ description: 'Waits for the spec' })
  async wait(_args: unknown, ctx: Context) {
    const gate = new Gate();
    gates.push(gate);
    await gate.pass(ctx.signal);
    return 'done';
  }
}

describe('maxInFlightPerNode', () => {
  it('refuses a request from any session with -32010 while the node answers as many as it may, and takes one again after', async () => {
    const server = new PhantomServer({ name: 'busy', version: '1.0.0', providers: [Waiting], diagnostics: SILENT_DIAGNOSTICS, maxInFlightPerNode: 2 });
    const clients = await Promise.all([0, 1, 2].map(() => connectInMemory(server)));
    try {
      gates.length = 0;
      const running = [clients[0].callTool({ name: 'wait' }), clients[1].callTool({ name: 'wait' })];
      while (gates.length < 2) await new Promise((resolve) => setImmediate(resolve));
      const refused = await clients[2].callTool({ name: 'wait' }).then(() => undefined, (error: unknown) => error);
      expect(refused).to.be.instanceOf(McpError);
      expect((refused as McpError).code).to.equal(-32010);
      expect((refused as McpError).data).to.deep.equal({ maxInFlightPerNode: 2 });
      // ping is the protocol's own: never refused.
      expect(await clients[2].ping()).to.deep.equal({});
      gates[0].open();
      await running[0];
      const third = clients[2].callTool({ name: 'wait' });
      while (gates.length < 3) await new Promise((resolve) => setImmediate(resolve));
      gates[1].open();
      gates[2].open();
      expect((await third).content).to.deep.equal([{ type: 'text', text: 'done' }]);
      await running[1];
    } finally {
      for (const client of clients) await client.close();
      await server.close();
    }
  });
});
