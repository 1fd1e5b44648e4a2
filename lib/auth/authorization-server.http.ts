/** How lib/auth talks to the authorization server: a `fetch` (the global one unless given) and a deadline per request. */
export interface AuthorizationServerHttp {
  readonly fetch: typeof fetch;
  readonly timeoutMs: number;
}

/** An answer of the authorization server: its status, and its body parsed as JSON (`undefined` when it is not JSON). */
export interface JsonAnswer {
  readonly status: number;
  readonly body: unknown;
}

/**
 * One request to the authorization server, abandoned after `timeoutMs`. Rejects (with the cause)
 * only when no answer came: the network failed or the deadline passed. Whatever came is the caller's
 * to judge.
 */
export async function requestJson(http: AuthorizationServerHttp, url: string, init: RequestInit = {}): Promise<JsonAnswer> {
  const response = await http.fetch(url, {
    ...init,
    headers: { accept: 'application/json', ...(init.headers as Record<string, string> | undefined) },
    signal: AbortSignal.timeout(http.timeoutMs),
  });
  const text = await response.text();
  return { status: response.status, body: parseJson(text) };
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
