import 'reflect-metadata';
import { expect } from 'chai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { PhantomServer, SILENT_DIAGNOSTICS } from '../../../lib';
import { Documents, serve } from '../../../docs/examples/limits';

const FIVE_MIB = 'x'.repeat(5 * 1024 * 1024);

async function clientOf(url: string): Promise<Client> {
  const client = new Client({ name: 'docs-spec', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

describe('docs/examples/limits.ts (the limits guide)', () => {
  it('takes a 5 MiB call once maxBodyBytes is raised to 16 MiB', async () => {
    const { server, listener } = await serve(0);
    try {
      const client = await clientOf(listener.url);
      const result = await client.callTool({ name: 'save', arguments: { text: FIVE_MIB } });
      expect(result.content).to.deep.equal([{ type: 'text', text: `Saved ${FIVE_MIB.length} characters` }]);
      await client.close();
    } finally {
      await server.close();
    }
  });

  it('where the default (4 MiB) answers the same call with 413', async () => {
    const server = new PhantomServer({ name: 'documents', version: '1.0.0', providers: [Documents], diagnostics: SILENT_DIAGNOSTICS });
    const listener = await server.listen({ port: 0 });
    try {
      const client = await clientOf(listener.url);
      const call = client.callTool({ name: 'save', arguments: { text: FIVE_MIB } });
      const error = await call.then(() => undefined, (thrown: Error & { code?: number }) => thrown);
      expect(error?.code).to.equal(413); // the SDK's transport error carries the status
      expect(error?.message).to.contain('Payload Too Large: the body exceeds 4194304 bytes');
      await client.close();
    } finally {
      await server.close();
    }
  });
});
