import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a raw HTTP exchange gave: its status, headers and body text (and the body as JSON when it is). */
export interface RawReply {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
  readonly json: any;
}

/** An HTTP request with exactly these headers (a Host of our choosing too, which fetch would not send). */
export function raw(port: number, options: { method?: string; path?: string; headers?: Record<string, string>; body?: string }): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: options.method ?? 'POST', path: options.path ?? '/mcp', headers: options.headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => { text += chunk; });
      res.on('end', () => {
        let json: unknown;
        try { json = JSON.parse(text); } catch { json = undefined; }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

export const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0', id: 1, method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1.0.0' } },
});

/** The headers a Streamable HTTP POST carries. */
export const POST_HEADERS = Object.freeze({ 'content-type': 'application/json', accept: 'application/json, text/event-stream' });

/** The official client, through the whole session: connect, call `greet`, end the session. What the call answered. */
export async function greetOver(url: string): Promise<unknown> {
  const transport = new StreamableHTTPClientTransport(new URL(url));
  const client = new Client({ name: 'docs-spec', version: '1.0.0' });
  await client.connect(transport);
  const result = await client.callTool({ name: 'greet', arguments: { name: 'Ada' } });
  await transport.terminateSession();
  await client.close();
  return result.content;
}

export const GREETED = [{ type: 'text', text: 'Hello, Ada!' }];

export function portOf(server: Server): number {
  return (server.address() as AddressInfo).port;
}

/** Listens on a free loopback port. */
export function listening(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(portOf(server))));
}

export function closed(server: Server): Promise<void> {
  return new Promise((done) => { server.closeAllConnections(); server.close(() => done()); });
}
