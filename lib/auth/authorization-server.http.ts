/**
 * How lib/auth talks to the authorization server: a `fetch` (the global one unless given), a
 * deadline per request (answer and body both), and the largest body read.
 */
export interface AuthorizationServerHttp {
  readonly fetch: typeof fetch;
  readonly timeoutMs: number;
  readonly maxBytes: number;
}

/** An answer of the authorization server larger than `maxBytes`: refused, the rest of it unread. */
export class DocumentTooLargeError extends Error {
  override readonly name = 'DocumentTooLargeError';
}

/** An answer of the authorization server: its status, and its body parsed as JSON (`undefined` when it is not JSON). */
export interface JsonAnswer {
  readonly status: number;
  readonly body: unknown;
}

/**
 * One request to the authorization server, abandoned after `timeoutMs`. Rejects (with the cause)
 * when no whole answer came: the network failed, the deadline passed, or the body is larger than
 * `maxBytes` (it is read as it arrives and dropped at the first byte past the cap, so a huge
 * document costs no more memory than the cap). Whatever came within these is the caller's to judge.
 */
export async function requestJson(http: AuthorizationServerHttp, url: string, init: RequestInit = {}): Promise<JsonAnswer> {
  const response = await http.fetch(url, {
    ...init,
    headers: { accept: 'application/json', ...(init.headers as Record<string, string> | undefined) },
    signal: AbortSignal.timeout(http.timeoutMs),
  });
  const text = await boundedText(response, http.maxBytes, url);
  return { status: response.status, body: parseJson(text) };
}

async function boundedText(response: Response, maxBytes: number, url: string): Promise<string> {
  const tooLarge = (size: string) => new DocumentTooLargeError(`${url} answered ${size}, more than the ${maxBytes} bytes allowed (maxDocumentBytes)`);
  const declared = Number(response.headers.get('content-length'));
  if (declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge(`a body of ${declared} bytes`);
  }
  if (!response.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    size += read.value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge('a longer body');
    }
    chunks.push(read.value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Whether `value` is a JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
