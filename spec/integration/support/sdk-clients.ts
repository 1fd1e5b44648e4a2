import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport, type PhantomServer } from '../../../lib';

export type ClientCapabilities = ConstructorParameters<typeof Client>[1] extends infer O ? O extends { capabilities?: infer C } ? C : never : never;

export function newClient(capabilities: ClientCapabilities = {}): Client {
  return new Client({ name: 'spec-client', version: '0.0.1' }, { capabilities });
}

/** The official client, connected in-process. */
export async function connectInMemory(server: PhantomServer, capabilities: ClientCapabilities = {}): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = newClient(capabilities);
  await client.connect(clientSide);
  return client;
}

/** The official client over Streamable HTTP. */
export async function connectHttp(url: string, capabilities: ClientCapabilities = {}, headers: Record<string, string> = {}): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
  const client = newClient(capabilities);
  await client.connect(transport);
  return { client, transport };
}
