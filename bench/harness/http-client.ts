import { Agent, request } from 'node:http';

export interface HttpReply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly text: string;
}

/** Keep-alive sockets for the set-up traffic (sessions, probes), as a real client keeps them. */
const agent = new Agent({ keepAlive: true, maxSockets: 50 });

/** One POST on loopback; resolves with whatever status came back. */
export function post(url: string, headers: Readonly<Record<string, string>>, body: string): Promise<HttpReply> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent, headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The JSON-RPC message of a reply: a JSON body, or the first `data:` line of an SSE body. */
export function messageOf(reply: HttpReply): { result?: unknown; error?: { message?: string } } | undefined {
  const type = String(reply.headers['content-type'] ?? '');
  const json = type.includes('text/event-stream')
    ? reply.text.split('\n').find((line) => line.startsWith('data:') && line.length > 6)?.slice(5)
    : reply.text;
  try {
    return json ? JSON.parse(json) : undefined;
  } catch {
    return undefined;
  }
}

/** Runs `task` `count` times, at most `width` at once. */
export async function inParallel(count: number, width: number, task: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) await task(next++);
  };
  await Promise.all(Array.from({ length: Math.min(width, count) }, worker));
}
