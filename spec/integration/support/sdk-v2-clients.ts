import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

/** Which era the official SDK v2 client speaks: 2026-07-28 (pinned, stateless) or the 2025 handshake. */
export type V2Era = 'stateless' | 'session';

/**
 * The official SDK v2 client (`@modelcontextprotocol/client`) over Streamable HTTP: pinned to
 * 2026-07-28 for the stateless era (it probes with `server/discover` and fails loudly otherwise),
 * or the plain `initialize` handshake for the session era.
 */
export async function connectV2(url: string, era: V2Era, capabilities: Record<string, unknown> = {}): Promise<Client> {
  const client = new Client(
    { name: 'phantom-spec-v2', version: '1.0.0' },
    { capabilities, versionNegotiation: { mode: era === 'stateless' ? { pin: '2026-07-28' } : 'legacy' } } as ConstructorParameters<typeof Client>[1],
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}
