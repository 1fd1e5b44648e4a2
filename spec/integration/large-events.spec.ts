import 'reflect-metadata';
import { expect } from 'chai';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { IsString } from 'class-validator';
import { Elicit, Field, PhantomServer, SILENT_DIAGNOSTICS, Tool, type Context } from '../../lib';
import type { HttpListener } from '../../lib/entries/http';
import { connectHttp } from './support/sdk-clients';
import { call, meta } from './support/stateless-client';

const BIG = 3 * 1024 * 1024;

@Elicit({ message: 'Paste the document' })
class Paste {
  @Field({ title: 'Document' }) @IsString() text!: string;
}

class LargeTools {
  @Tool({ description: 'Reports progress, then returns 3 MB of text on the same stream' })
  async big(_args: unknown, ctx: Context) {
    await ctx.progress(1, 2);
    return 'x'.repeat(BIG);
  }

  @Tool({ description: 'Asks for a document and returns it' })
  async paste(_args: unknown, ctx: Context) {
    const answer = await ctx.elicit(Paste);
    return answer.action === 'accept' ? answer.content.text : answer.action;
  }
}

describe('large events on an SSE stream (a client that reads gets every byte)', () => {
  let server: PhantomServer;
  let listener: HttpListener;

  before(async () => {
    server = new PhantomServer({ name: 'large', version: '1.0.0', providers: [LargeTools], diagnostics: SILENT_DIAGNOSTICS });
    // Far below one event's size: the limit is about a client that stops reading, not about an event.
    listener = await server.listen({ port: 0, maxSseBufferBytes: 64 * 1024, maxBodyBytes: 8 * 1024 * 1024 });
  });

  after(async () => {
    await listener.close();
    await server.close();
  });

  context('in the session era, with the official SDK client', () => {
    it('delivers a tool result larger than maxSseBufferBytes after a progress event', async () => {
      const { client } = await connectHttp(listener.url);
      try {
        let progressed = 0;
        const result = await client.callTool({ name: 'big' }, undefined, { onprogress: () => { progressed += 1; } });
        expect(progressed).to.equal(1);
        expect((result.content as Array<{ text: string }>)[0].text).to.have.length(BIG);
      } finally {
        await client.close();
      }
    });

    it('delivers the result of an elicitation answered with a 3 MB value, which the result carries back', async () => {
      const { client } = await connectHttp(listener.url, { elicitation: { form: {} } });
      try {
        client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { text: 'y'.repeat(BIG) } }));
        const result = await client.callTool({ name: 'paste' });
        expect((result.content as Array<{ text: string }>)[0].text).to.equal('y'.repeat(BIG));
      } finally {
        await client.close();
      }
    });
  });

  context('in the stateless era', () => {
    it('delivers a tool result larger than maxSseBufferBytes after a progress event', async () => {
      const reply = await call(listener.url, 'tools/call', { name: 'big', arguments: {}, _meta: { ...meta(), progressToken: 'p1' } });
      expect(reply.contentType).to.equal('text/event-stream');
      expect(reply.events.filter((event) => event.method === 'notifications/progress')).to.have.length(1);
      expect(reply.body.result.content[0].text).to.have.length(BIG);
    });
  });
});
