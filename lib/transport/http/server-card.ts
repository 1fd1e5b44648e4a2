import type { Icon, Implementation } from '../../core/wire.types';
import { definedOnly } from '../../core/defined-only';

/** The one `$schema` a server card may carry (the card schema's `v1` family; dated URLs are refused). */
export const SERVER_CARD_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json';

/** The card's media type: what it is served as, and what a client asks for. */
export const SERVER_CARD_MEDIA_TYPE = 'application/mcp-server-card+json';

/** Appended to the Streamable HTTP endpoint's path: the card's reserved location (`/mcp` -> `/mcp/server-card`). */
export const SERVER_CARD_SUFFIX = '/server-card';

/** The registry's name rule, which the card shares: `namespace/name` in reverse-DNS form, 3 to 200 characters. */
const REGISTRY_NAME = /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/;

/** Versions the card schema refuses: ranges and wildcards (`^1.2.3`, `~1`, `>=1`, `1.x`, `1.*`). */
const VERSION_RANGE = /^[\^~<>=]|(^|\.)[xX*](\.|$)|\s-\s|\|\|/;

/**
 * A header a client sends to the endpoint, as the card describes it (the card schema's
 * `KeyValueInput`): a client asks its user for it, and keeps it secret when `isSecret`.
 */
export interface ServerCardHeader {
  /** The header's name (`X-API-Key`). */
  readonly name: string;
  /** What it is and where to get it. */
  readonly description?: string;
  /** Whether a request without it is refused. */
  readonly isRequired?: boolean;
  /** Whether it is a credential (a client masks and stores it as one). */
  readonly isSecret?: boolean;
  /** A fixed value, where `{variables}` may stand for what the user supplies (`Bearer {token}`). */
  readonly value?: string;
  /** A value shown as an example while the user types one. */
  readonly placeholder?: string;
}

/** One endpoint a client can connect to, in the card (`remotes[]`). */
export interface ServerCardRemote {
  readonly type: 'streamable-http';
  /** The endpoint's public URL. */
  readonly url: string;
  /** The headers a client sends to it: `Authorization` when it is an OAuth resource server. */
  readonly headers?: readonly ServerCardHeader[];
  /** The protocol versions the endpoint serves, newest first. */
  readonly supportedProtocolVersions: readonly string[];
}

/**
 * The MCP server card (SEP-2127, the `experimental-ext-server-card` extension): what a client
 * reads before it connects, built from server-level facts only. It lists no tools, prompts or
 * resources, and nothing that depends on who asks.
 */
export interface ServerCard {
  readonly $schema: typeof SERVER_CARD_SCHEMA;
  /** The registry name, `namespace/name` in reverse-DNS form (`io.github.alice/weather`). */
  readonly name: string;
  readonly version: string;
  /** What the server does, 1 to 100 characters. */
  readonly description: string;
  readonly title?: string;
  readonly websiteUrl?: string;
  readonly icons?: readonly Icon[];
  readonly remotes: readonly ServerCardRemote[];
}

/**
 * The server card's settings (HTTP option `serverCard`; `false` serves none). The card is served
 * at `<path>/server-card` when a registry name and a description are known: `name` here, else the
 * server's own name when it has the registry's form; the server option `description`. Otherwise
 * it is not served (404) and start-up says why.
 *
 * @example
 * await server.listen({ port: 3000, host: '0.0.0.0', allowedHosts: ['mcp.example.com'],
 *   serverCard: { name: 'com.example/notes', url: 'https://mcp.example.com/mcp' } });
 */
export interface ServerCardOptions {
  /**
   * The registry name (`com.example/notes`: reverse-DNS namespace, one `/`, 3 to 200 characters),
   * as in the registry's `server.json` and `mcpName` in `package.json`. Default: the server's
   * `name` when it has that form.
   */
  readonly name?: string;
  /**
   * The endpoint's public URL (`https://mcp.example.com/mcp`), named in the card's `remotes`.
   * Default: `http://` + the request's Host (once the Host check passed) + `path`: right on the
   * developer's machine; behind TLS or a proxy that rewrites paths, set it. Forwarded headers
   * (`X-Forwarded-Proto`, `X-Forwarded-Host`) are never read: any client can send them.
   */
  readonly url?: string;
  /**
   * Headers a client must send, named in the card (an API key an `authenticate` hook checks).
   * With the `auth` option an `Authorization` input is listed already.
   */
  readonly headers?: readonly ServerCardHeader[];
  /** `Cache-Control: public, max-age=` this many seconds (default 3600). */
  readonly maxAgeSec?: number;
}

/** What a card is built from: the server's identity and the versions it serves. @hidden */
export interface ServerCardFacts {
  readonly info: Implementation;
  /** Every protocol version the server serves, newest first. */
  readonly protocolVersions: readonly string[];
}

/** The card less its endpoint URL, which may come from each request's Host. @internal */
export type CardDraft =
  | { readonly ok: true; readonly build: (url: string) => ServerCard }
  | { readonly ok: false; readonly problems: readonly string[] };

/** The `Authorization` input of an endpoint behind OAuth: required and secret, with no value (a card never holds a credential). */
const BEARER_HEADER: ServerCardHeader = Object.freeze({
  name: 'Authorization',
  description: 'An OAuth 2.1 access token, as "Bearer <token>", from the authorization server named in the protected-resource metadata',
  isRequired: true,
  isSecret: true,
});

/** Whether `name` is a registry name (`namespace/name`, reverse-DNS, 3 to 200 characters). */
export function isRegistryName(name: unknown): name is string {
  return typeof name === 'string' && name.length >= 3 && name.length <= 200 && REGISTRY_NAME.test(name);
}

/** Whether `url` is an absolute http(s) URL with no whitespace, as the card's `remotes[].url` must be. */
export function isHttpUrl(url: unknown): url is string {
  if (typeof url !== 'string' || /\s/.test(url)) return false;
  try {
    const { protocol } = new URL(url);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * The card of a server, or every reason it cannot have one (no registry name, no description, a
 * field the card schema refuses). `bearer`: the endpoint is an OAuth resource server.
 * @internal
 */
export function cardDraft(facts: ServerCardFacts, options: ServerCardOptions, bearer: boolean): CardDraft {
  const { info } = facts;
  const problems: string[] = [];
  const name = options.name ?? info.name;
  if (!isRegistryName(name)) problems.push(`no registry name: the server's name "${info.name}" is not of the form namespace/name (reverse-DNS, e.g. io.github.alice/weather); set serverCard.name`);
  const { description, title, websiteUrl, icons } = info;
  if (description === undefined || description.length === 0) problems.push('no description: set the server option description (1 to 100 characters)');
  else if (description.length > 100) problems.push(`the description has ${description.length} characters; a card takes at most 100`);
  if (info.version.length === 0 || info.version.length > 255 || VERSION_RANGE.test(info.version)) problems.push(`the version "${info.version}" is not one version (1 to 255 characters, no range)`);
  if (title !== undefined && (title.length === 0 || title.length > 100)) problems.push(`the title has ${title.length} characters; a card takes 1 to 100`);
  if (websiteUrl !== undefined && !isAbsoluteUrl(websiteUrl)) problems.push(`websiteUrl "${websiteUrl}" is not an absolute URL`);
  for (const icon of icons ?? []) if (!isAbsoluteUrl(icon.src)) problems.push(`an icon's src "${icon.src.slice(0, 60)}" is not an absolute URL`);
  if (problems.length > 0) return { ok: false, problems };
  const headers = [...(bearer ? [BEARER_HEADER] : []), ...(options.headers ?? []).map((header) => Object.freeze(definedOnly({ ...header })))];
  const fixed = definedOnly({
    $schema: SERVER_CARD_SCHEMA as typeof SERVER_CARD_SCHEMA,
    name: name as string,
    version: info.version,
    description: description as string,
    title,
    websiteUrl,
    icons: icons?.map((icon) => definedOnly({ ...icon })),
  });
  const versions = [...facts.protocolVersions];
  return {
    ok: true,
    build: (url) => ({ ...fixed, remotes: [definedOnly({ type: 'streamable-http' as const, url, headers: headers.length > 0 ? headers : undefined, supportedProtocolVersions: versions })] }),
  };
}

/**
 * What is wrong with the `serverCard` option as written (a start-up error, unlike facts the server
 * lacks, which only leave the card unserved).
 * @internal
 */
export function cardOptionProblems(options: ServerCardOptions): string[] {
  const problems: string[] = [];
  if (options.name !== undefined && !isRegistryName(options.name)) problems.push(`serverCard.name "${options.name}" is not of the form namespace/name (reverse-DNS, 3 to 200 characters)`);
  if (options.url !== undefined && !isHttpUrl(options.url)) problems.push(`serverCard.url "${options.url}" is not an absolute http(s) URL`);
  const { maxAgeSec } = options;
  if (maxAgeSec !== undefined && !(Number.isSafeInteger(maxAgeSec) && maxAgeSec >= 0)) problems.push(`serverCard.maxAgeSec must be a whole number of seconds, 0 or more (got ${String(maxAgeSec)})`);
  for (const header of options.headers ?? []) {
    if (typeof header?.name !== 'string' || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(header.name)) problems.push(`serverCard.headers: "${String(header?.name)}" is not a header name`);
  }
  return problems;
}

function isAbsoluteUrl(value: string): boolean {
  try {
    return new URL(value).protocol.length > 1;
  } catch {
    return false;
  }
}
