import 'reflect-metadata';
import { expect } from 'chai';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { IsString } from 'class-validator';
import { Elicit, Field, PhantomServer, SILENT_DIAGNOSTICS, Tool, type Context } from '../../lib';
import { connectInMemory } from './support/sdk-clients';

@Elicit({ message: 'Read this' })
class Ack {
  @Field({ title: 'Ok' }) @IsString() ok!: string;
}

class Reader {
  @Tool({ description: 'Shows a long text and asks for an acknowledgement' })
  async show({ size }: { size?: number }, ctx: Context) {
    const answer = await ctx.elicit(Ack, { message: 'x'.repeat(size ?? 0) });
    return answer.action;
  }
}

describe('maxPendingBytesPerSession', () => {
  it('does not send a request past what the session\'s unanswered ones may hold, and sends again once they are answered', async () => {
    const server = new PhantomServer({ name: 'reader', version: '1.0.0', providers: [Reader], diagnostics: SILENT_DIAGNOSTICS, maxPendingBytesPerSession: 100_000 });
    const client = await connectInMemory(server, { elicitation: { form: {} } });
    try {
      const held: Array<() => void> = [];
      let asked = 0;
      client.setRequestHandler(ElicitRequestSchema, () => {
        asked += 1;
        return new Promise((resolve) => held.push(() => resolve({ action: 'accept', content: { ok: 'yes' } })));
      });
      const first = client.callTool({ name: 'show', arguments: { size: 60_000 } });
      while (asked < 1) await new Promise((resolve) => setImmediate(resolve));
      const second = await client.callTool({ name: 'show', arguments: { size: 60_000 } });
      expect(second.isError).to.equal(true);
      expect((second.content as Array<{ text: string }>)[0].text).to.match(/not answered earlier requests .* at most 100000/);
      expect(asked).to.equal(1);
      held.shift()!();
      expect((await first).content).to.deep.equal([{ type: 'text', text: 'accept' }]);
      const third = client.callTool({ name: 'show', arguments: { size: 60_000 } });
      while (asked < 2) await new Promise((resolve) => setImmediate(resolve));
      held.shift()!();
      expect((await third).content).to.deep.equal([{ type: 'text', text: 'accept' }]);
    } finally {
      await client.close();
      await server.close();
    }
  });
});
