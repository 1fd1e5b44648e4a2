import 'reflect-metadata';
import { expect } from 'chai';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { IsString } from 'class-validator';
import { Elicit, Field, PhantomServer, Tool, type Context, type Diagnostics } from '../../lib';
import type { HttpListener } from '../../lib/entries/http';
import { eventually } from '../support/eventually';
import { connectHttp } from './support/sdk-clients';

@Elicit({ message: 'Confirm?' })
class Confirm {
  @Field({ title: 'Why' }) @IsString() why!: string;
}

class Asking {
  @Tool({ description: 'Asks the client to confirm' })
  async ask(_args: unknown, ctx: Context) {
    const answer = await ctx.elicit(Confirm);
    return answer.action;
  }
}

/** Diagnostics that keep every line, by level. */
function recording() {
  const lines = { error: [] as string[], warn: [] as string[], debug: [] as string[] };
  const diagnostics: Diagnostics = {
    error: (message) => { lines.error.push(message); },
    warn: (message) => { lines.warn.push(message); },
    debug: (message) => { lines.debug.push(message); },
  };
  return { lines, diagnostics };
}

describe('diagnostics a client can cause', () => {
  context('when sessions are deleted while their elicitations wait', () => {
    let server: PhantomServer;
    let listener: HttpListener;
    const { lines, diagnostics } = recording();

    before(async () => {
      server = new PhantomServer({ name: 'asking', version: '1.0.0', providers: [Asking], diagnostics });
      listener = await server.listen({ port: 0 });
    });

    after(async () => {
      await listener.close();
      await server.close();
    });

    it('reports each abandoned call at debug level only, never as a failure of the handler', async () => {
      const sessions = 12;
      for (let n = 0; n < sessions; n += 1) {
        const { client, transport } = await connectHttp(listener.url, { elicitation: { form: {} } });
        const asked = new Promise<void>((resolve) => {
          client.setRequestHandler(ElicitRequestSchema, () => {
            resolve();
            return new Promise(() => undefined);
          });
        });
        const abort = new AbortController();
        const call = client.callTool({ name: 'ask' }, undefined, { signal: abort.signal }).catch(() => undefined);
        await asked;
        await transport.terminateSession();
        abort.abort();
        await call;
        await client.close();
      }
      // Other debug lines (start-up notes, such as why no server card is served) are not about the calls.
      const abandoned = () => lines.debug.filter((line) => /session ended before the client answered/.test(line));
      await eventually('every abandoned call reported', () => abandoned().length + lines.error.length === sessions);
      expect(lines.error).to.deep.equal([]);
      expect(lines.warn).to.deep.equal([]);
      expect(abandoned()).to.have.length(sessions);
    });
  });
});
