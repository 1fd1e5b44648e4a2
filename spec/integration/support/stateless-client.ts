/** A minimal stateless-era (2026-07-28) client over raw HTTP: what the official SDK cannot speak yet. */
export const VERSION = '2026-07-28';

export function meta(capabilities: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) {
  return {
    'io.modelcontextprotocol/protocolVersion': VERSION,
    'io.modelcontextprotocol/clientInfo': { name: 'stateless-spec', version: '1' },
    'io.modelcontextprotocol/clientCapabilities': capabilities,
    ...extra,
  };
}

let nextId = 1;

export interface StatelessReply { status: number; body: any; events: any[]; contentType: string | null }

/** Sends one request with the headers the revision asks for (override or drop them with `headers`). */
export async function call(url: string, method: string, params: Record<string, unknown>, headers: Record<string, string | undefined> = {}): Promise<StatelessReply> {
  const name = (params.name ?? params.uri) as string | undefined;
  const all: Record<string, string | undefined> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': VERSION,
    'mcp-method': method,
    ...(name !== undefined ? { 'mcp-name': name } : {}),
    ...headers,
  };
  const sent = Object.fromEntries(Object.entries(all).filter(([, v]) => v !== undefined)) as Record<string, string>;
  const response = await fetch(url, { method: 'POST', headers: sent, body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }) });
  const text = await response.text();
  const contentType = response.headers.get('content-type');
  if (contentType === 'text/event-stream') {
    const events = text.split('\n\n').map((e) => e.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trim()).join('')).filter(Boolean).map((d) => JSON.parse(d));
    return { status: response.status, body: events.find((e) => 'result' in e || 'error' in e), events, contentType };
  }
  return { status: response.status, body: text ? JSON.parse(text) : undefined, events: [], contentType };
}
