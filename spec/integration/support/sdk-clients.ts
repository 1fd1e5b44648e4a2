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

/**
 * The official client over Streamable HTTP, resolved once its standalone (GET) stream has
 * delivered the priming event: from then on it hears every notification the server sends, from
 * whichever node. (The client opens that stream on its own after initialising, without telling.)
 */
export async function connectHttpListening(url: string, capabilities: ClientCapabilities = {}): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  let primed!: () => void;
  const listening = new Promise<void>((resolve) => (primed = resolve));
  const watchingGet = async (input: string | URL, init?: RequestInit): Promise<Response> => {
    const response = await fetch(input, init);
    if ((init?.method ?? 'GET') !== 'GET' || !response.ok || !response.body) return response;
    const [watched, passed] = response.body.tee();
    void firstEvent(watched).then(primed);
    return new Response(passed, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
  const transport = new StreamableHTTPClientTransport(new URL(url), { fetch: watchingGet });
  const client = newClient(capabilities);
  await client.connect(transport);
  await listening;
  return { client, transport };
}

/** Reads `body` up to the end of its first SSE event, then lets it go. */
async function firstEvent(body: ReadableStream<Uint8Array>): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  while (!/\r?\n\r?\n/.test(text)) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  // A tee'd branch's cancel settles only once the other branch is cancelled too: not awaited.
  void reader.cancel();
}
