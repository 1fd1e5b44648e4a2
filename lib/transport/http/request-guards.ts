import type { HttpRequestLike } from './http-like.types';

const LOOPBACK_HOSTS = Object.freeze(['localhost', '127.0.0.1', '[::1]']);

/** The host part of a Host header or origin, lower-cased, without the port. */
function hostname(value: string): string {
  const lower = value.toLowerCase();
  if (lower.startsWith('[')) return lower.slice(0, lower.indexOf(']') + 1);
  const colon = lower.lastIndexOf(':');
  return colon === -1 ? lower : lower.slice(0, colon);
}

/** An entry matches exactly (`host:port`) or by host name alone (`host`: any port). */
function matches(value: string, allowed: readonly string[]): boolean {
  const lower = value.toLowerCase();
  const name = hostname(lower);
  return allowed.some((entry) => {
    const wanted = entry.toLowerCase();
    return wanted === '*' || wanted === lower || wanted === name;
  });
}

/**
 * DNS-rebinding protection: the Host header must name this server. `allowed` entries match with or
 * without a port (`'*'`: any); default: loopback names. The check `/mcp` makes (`allowedHosts`),
 * exported for pages an application serves beside it.
 *
 * @example
 * if (!hostAllowed(req, ['notes.example.com'])) return res.writeHead(403).end();
 */
export function hostAllowed(req: HttpRequestLike, allowed: readonly string[] = LOOPBACK_HOSTS): boolean {
  const host = req.headers.host;
  if (host === undefined) return false;
  if (allowed === LOOPBACK_HOSTS) return remember(hostVerdicts, host, isLoopbackHost);
  const key = `${host}\u0000${allowed.join(',')}`;
  const known = hostVerdicts.get(key);
  return known ?? remember(hostVerdicts, key, () => matches(host, allowed));
}

function isLoopbackHost(host: string): boolean {
  return matches(host, LOOPBACK_HOSTS);
}

/** A browser's Origin, when there is one, must be allowed; requests without one are not from a page. */
export function originAllowed(req: HttpRequestLike, allowed?: readonly string[]): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  if (allowed) return allowed.some((entry) => entry === '*' || entry.toLowerCase() === origin.toLowerCase());
  try {
    return LOOPBACK_HOSTS.includes(hostname(new URL(origin).host));
  } catch {
    return false;
  }
}

/** Whether the Accept header lists `type` (or a wildcard covering it). */
export function accepts(req: HttpRequestLike, type: string): boolean {
  const accept = req.headers.accept;
  if (!accept) return false;
  const types = remember(parsedAccept, accept, mediaTypesOf);
  return types.has(type) || types.has('*/*') || types.has(`${type.split('/')[0]}/*`);
}

const parsedAccept = new Map<string, ReadonlySet<string>>();

function mediaTypesOf(accept: string): ReadonlySet<string> {
  return new Set(accept.split(',').map((part) => part.split(';')[0].trim().toLowerCase()));
}

export function isJsonContent(req: HttpRequestLike): boolean {
  const type = req.headers['content-type'];
  return typeof type === 'string' && remember(jsonTypes, type, isJsonType);
}

function isJsonType(type: string): boolean {
  return type.split(';')[0].trim().toLowerCase() === 'application/json';
}

// Clients send the same few header values on every request: decide each distinct one once.
const hostVerdicts = new Map<string, boolean>();
const jsonTypes = new Map<string, boolean>();

/** The verdict on `key`, decided once (`decide` takes the key, so a hit allocates nothing). */
function remember<T>(cache: Map<string, T>, key: string, decide: (key: string) => T): T {
  let verdict = cache.get(key);
  if (verdict === undefined) {
    verdict = decide(key);
    if (cache.size >= 64) cache.clear();
    cache.set(key, verdict);
  }
  return verdict;
}

/** A header's single value (the first, when repeated). */
export function header(req: HttpRequestLike, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Headers whose one value decides where a request goes. Node keeps the first of two `Host`
 * headers and joins two of the others with ", ", so a second copy would be read differently by
 * a proxy in front and by us: it is refused instead.
 */
const SINGLE_VALUED = Object.freeze(['host', 'mcp-session-id', 'mcp-protocol-version']);

/** The first single-valued header the request sent more than once, as spelled above. */
export function repeatedHeader(req: HttpRequestLike): string | undefined {
  const raw = req.rawHeaders;
  let seen = 0;
  for (let i = 0; i < raw.length; i += 2) {
    const index = singleValuedIndex(raw[i]);
    if (index === -1) continue;
    if (seen & (1 << index)) return SINGLE_VALUED[index];
    seen |= 1 << index;
  }
  return undefined;
}

function singleValuedIndex(name: string): number {
  for (let i = 0; i < SINGLE_VALUED.length; i += 1) {
    // Lengths first: most headers are ruled out without lower-casing them; a name sent in lower
    // case (HTTP/2 always, most clients) matches without a lower-cased copy.
    const wanted = SINGLE_VALUED[i];
    if (name.length === wanted.length && (name === wanted || name.toLowerCase() === wanted)) return i;
  }
  return -1;
}
