import 'reflect-metadata';
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { McpError } from '@modelcontextprotocol/sdk/types.js';
import { SILENT_DIAGNOSTICS, type HttpListener, type PhantomServer } from '../../lib';
import { everythingServer } from './support/everything.fixture';
import { connectInMemory } from './support/sdk-clients';
import { call, meta } from './support/stateless-client';

const errorOf = (promise: Promise<unknown>) => promise.then(() => expect.fail('expected an error'), (error: McpError) => error);

describe('server limits', () => {
  describe('maxUriLength (default 8192 characters)', () => {
    let server: PhantomServer;
    let client: Client;
    const tooLong = `test://items/${'x'.repeat(8192)}`;
    const asks: Record<string, (uri: string) => Promise<unknown>> = {
      'resources/read': (uri) => client.readResource({ uri }),
      'resources/subscribe': (uri) => client.subscribeResource({ uri }),
      'resources/unsubscribe': (uri) => client.unsubscribeResource({ uri }),
      'completion/complete': (uri) => client.complete({ ref: { type: 'ref/resource', uri }, argument: { name: 'id', value: '' } }),
    };

    before(async () => {
      server = everythingServer({ diagnostics: SILENT_DIAGNOSTICS });
      client = await connectInMemory(server);
    });

    after(async () => {
      await client.close();
      await server.close();
    });

    context('when a request names a URI longer than the limit', () => {
      for (const [method, ask] of Object.entries(asks)) {
        it(`answers ${method} with -32602 saying so`, async () => {
          const error = await errorOf(ask(tooLong));
          expect(error.code).to.equal(-32602);
          expect(error.message).to.contain('"uri" is 8205 characters long; this server accepts URIs of up to 8192');
        });
      }

      it('answers the stateless era the same way', async () => {
        const http: HttpListener = await server.listen({ port: 0 });
        try {
          const reply = await call(http.url, 'resources/read', { _meta: meta(), uri: tooLong });
          expect(reply.body.error.code).to.equal(-32602);
          expect(reply.body.error.message).to.contain('this server accepts URIs of up to 8192');
        } finally {
          await http.close();
        }
      });
    });

    context('when the URI is within the limit', () => {
      it('serves it', async () => {
        const uri = `test://items/${'x'.repeat(8192 - 'test://items/'.length)}`;
        expect((await client.readResource({ uri })).contents).to.have.length(1);
      });
    });

    context('when the server sets its own limit', () => {
      it('applies it', async () => {
        const strict = everythingServer({ diagnostics: SILENT_DIAGNOSTICS, maxUriLength: 16 });
        const small = await connectInMemory(strict);
        expect((await errorOf(small.readResource({ uri: 'test://items/12345' }))).message).to.contain('up to 16');
        expect((await small.readResource({ uri: 'test://items/1' })).contents).to.have.length(1);
        await small.close();
        await strict.close();
      });
    });
  });
});
