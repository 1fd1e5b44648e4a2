/** A raw HTTP client for the things the SDK client never sends: bad headers, broken bodies, replays. */
export interface RawReply {
  status: number;
  headers: Headers;
  text: string;
  json: any;
}

export const MCP_ACCEPT = 'application/json, text/event-stream';

export async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<RawReply> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: MCP_ACCEPT, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return reply(response);
}

export async function send(url: string, method: string, headers: Record<string, string> = {}, body?: string): Promise<RawReply> {
  return reply(await fetch(url, { method, headers, body }));
}

async function reply(response: Response): Promise<RawReply> {
  const text = await response.text();
  let json: unknown;
  try { json = JSON.parse(text); } catch { json = undefined; }
  return { status: response.status, headers: response.headers, text, json };
}

export const INITIALIZE = {
  jsonrpc: '2.0', id: 1, method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

/** Opens a session with raw requests (at `protocolVersion`, default 2025-11-25); returns its id. */
export async function openSession(url: string, headers: Record<string, string> = {}, protocolVersion = INITIALIZE.params.protocolVersion): Promise<string> {
  const init = await post(url, { ...INITIALIZE, params: { ...INITIALIZE.params, protocolVersion } }, headers);
  const id = init.headers.get('mcp-session-id');
  if (init.status !== 200 || !id) throw new Error(`initialize failed: ${init.status} ${init.text}`);
  await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, { ...headers, 'mcp-session-id': id });
  return id;
}

/** The `data:` payloads of an SSE body, parsed, skipping priming events. */
export function sseMessages(text: string): any[] {
  return text.split('\n\n').map((event) => event.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trim()).join(''))
    .filter((data) => data.length > 0).map((data) => JSON.parse(data));
}

/** The `id:` lines of an SSE body. */
export function sseIds(text: string): string[] {
  return text.split('\n').filter((l) => l.startsWith('id:')).map((l) => l.slice(3).trim());
}

/** Reads a live SSE response one message at a time (priming events skipped); `close` aborts it. */
export interface SseReader {
  next(): Promise<any>;
  close(): void;
}

export async function openSse(url: string, init: RequestInit): Promise<SseReader & { status: number }> {
  const controller = new AbortController();
  const response = await fetch(url, { ...init, signal: controller.signal });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const next = async (): Promise<any> => {
    for (;;) {
      const end = buffer.indexOf('\n\n');
      if (end >= 0) {
        const data = buffer.slice(0, end).split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trim()).join('');
        buffer = buffer.slice(end + 2);
        if (data.length > 0) return JSON.parse(data);
        continue;
      }
      const chunk = await reader.read();
      if (chunk.done) throw new Error('the stream ended');
      buffer += decoder.decode(chunk.value, { stream: true });
    }
  };
  return { status: response.status, next, close: () => controller.abort() };
}

/** A GET stream read one event at a time, with its id (priming events skipped). */
export async function openEvents(url: string, headers: Record<string, string>): Promise<{ next(): Promise<{ id: string; message: any }>; close(): void }> {
  const controller = new AbortController();
  const response = await fetch(url, { method: 'GET', headers: { accept: MCP_ACCEPT, ...headers }, signal: controller.signal });
  if (response.status !== 200) throw new Error(`GET answered ${response.status}: ${await response.text()}`);
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  return {
    next: async () => {
      for (;;) {
        const end = buffer.indexOf('\n\n');
        if (end >= 0) {
          const lines = buffer.slice(0, end).split('\n');
          buffer = buffer.slice(end + 2);
          const data = lines.filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trim()).join('');
          if (data) return { id: lines.find((l) => l.startsWith('id:'))?.slice(3).trim() ?? '', message: JSON.parse(data) };
          continue;
        }
        const chunk = await reader.read();
        if (chunk.done) throw new Error('the stream ended');
        buffer += decoder.decode(chunk.value, { stream: true });
      }
    },
    close: () => controller.abort(),
  };
}
