import { createHash } from 'node:crypto';
import type { Diagnostics } from '../../core/diagnostics';
import { PhantomError } from '../../core/errors';
import type { HttpRequestLike, HttpResponseLike } from './http-like.types';
import { HttpError, refusals, replyError } from './http-replies';
import { header, hostAllowed, repeatedHeader } from './request-guards';
import {
  cardDraft, cardOptionProblems, SERVER_CARD_MEDIA_TYPE, SERVER_CARD_SUFFIX,
  type CardDraft, type ServerCardFacts, type ServerCardOptions,
} from './server-card';

/** `Cache-Control: public, max-age=` this by default: an hour, as the extension suggests. */
export const DEFAULT_CARD_MAX_AGE_SEC = 3600;

/** The extension's CORS headers: the card is public and read-only, so any page may read it and revalidate it. */
const CORS = Object.freeze({
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET',
  'access-control-allow-headers': 'Content-Type, If-None-Match',
  'access-control-expose-headers': 'ETag',
});
const ALLOWED = Object.freeze({ ...CORS, allow: 'GET, HEAD, OPTIONS' });
const NOT_FOUND = Object.freeze({ code: HttpError.ServerError, message: 'Not Found: this server serves no server card' });
const BAD_HOST = Object.freeze({ code: HttpError.ServerError, message: 'Bad Request: the Host header is not a host name' });

/** A Host header as a URL may carry it: a name or an address, and a port. */
const HOST_FORM = /^(\[[0-9a-fA-F:.]+\]|[a-zA-Z0-9.-]+)(:\d{1,5})?$/;

/** Cards kept per Host when the URL comes from it (a server answers to a handful of names). */
const MAX_CARDS_BY_HOST = 16;

/** One card as served: its body and the strong validator over it. */
interface ServedCard {
  readonly body: string;
  readonly etag: string;
}

/** What the endpoint needs besides the card's facts: where the MCP endpoint is, and the Host rule. */
export interface CardEndpointSettings {
  /** The MCP endpoint's path (`/mcp`): the card is at `/mcp/server-card`. */
  readonly path: string;
  readonly options: ServerCardOptions;
  /** The handler's `allowedHosts` (default: loopback names). */
  readonly allowedHosts?: readonly string[];
  /** Whether the endpoint is an OAuth resource server: the card then names the Authorization header. */
  readonly bearer: boolean;
}

/**
 * The server card at `<path>/server-card`: public (answered before the Origin check and
 * authentication, with `Access-Control-Allow-Origin: *`), cacheable (`Cache-Control`, a strong
 * `ETag` over the body, `If-None-Match` answered 304), GET and HEAD only. The Host check still
 * applies: the URL in the card may be built from the Host. When the server lacks what a card
 * needs, the path answers 404 and start-up said why, once.
 */
export class ServerCardEndpoint {
  private readonly path: string;
  /** The MCP endpoint's path, without a trailing slash. */
  private readonly endpointPath: string;
  private readonly draft: CardDraft;
  private readonly cacheControl: string;
  private readonly fixed?: ServedCard;
  private readonly byHost = new Map<string, ServedCard>();

  constructor(facts: ServerCardFacts, private readonly settings: CardEndpointSettings, diagnostics: Diagnostics) {
    const { options, path } = settings;
    const wrong = cardOptionProblems(options);
    if (wrong.length > 0) throw new PhantomError('server_card_option', `HTTP options: ${wrong.join('; ')}`);
    this.endpointPath = path.replace(/\/+$/, '');
    this.path = this.endpointPath + SERVER_CARD_SUFFIX;
    this.cacheControl = `public, max-age=${options.maxAgeSec ?? DEFAULT_CARD_MAX_AGE_SEC}`;
    this.draft = cardDraft(facts, options, settings.bearer);
    if (!this.draft.ok) {
      // A server that shows no wish for a card (a plain name, no description) is not nagged.
      const wanted = settings.options.name !== undefined || facts.info.description !== undefined || facts.info.name.includes('/');
      const report = `no server card at ${this.path} (404): ${this.draft.problems.join('; ')}`;
      if (wanted) diagnostics.warn(report);
      else diagnostics.debug?.(report);
    } else if (options.url !== undefined) {
      this.fixed = served(this.draft.build(options.url));
    }
  }

  /** Whether this server has a card to serve. */
  get available(): boolean {
    return this.draft.ok;
  }

  /** Whether `url` (a request's target, query included) is the card's path. */
  serves(url: string | undefined): boolean {
    if (url === undefined) return false;
    const query = url.indexOf('?');
    return (query === -1 ? url : url.slice(0, query)) === this.path;
  }

  answer(req: HttpRequestLike, res: HttpResponseLike): void {
    if (req.method === 'OPTIONS') {
      res.writeHead(204, { ...CORS, 'access-control-max-age': '86400' });
      res.end();
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return replyError(res, 405, refusals.methodNotAllowed(req.method ?? ''), ALLOWED);
    if (!this.draft.ok) return replyError(res, 404, NOT_FOUND, CORS);
    const repeated = repeatedHeader(req);
    if (repeated) return replyError(res, 400, refusals.badRequest(`the ${repeated} header was sent more than once`), CORS);
    if (!hostAllowed(req, this.settings.allowedHosts)) return replyError(res, 403, refusals.forbidden('Host not allowed'), CORS);
    const card = this.fixed ?? this.fromHost(header(req, 'host') ?? '');
    if (card === undefined) return replyError(res, 400, BAD_HOST, CORS);
    const headers = { ...CORS, 'cache-control': this.cacheControl, etag: card.etag };
    if (matchesAny(header(req, 'if-none-match'), card.etag)) {
      res.writeHead(304, headers);
      res.end();
      return;
    }
    res.writeHead(200, { ...headers, 'content-type': SERVER_CARD_MEDIA_TYPE, 'content-length': String(Buffer.byteLength(card.body)) });
    res.end(req.method === 'GET' ? card.body : undefined);
  }

  /** The card naming `http://<host><path>`: the Host passed the Host check, and has a host's form. */
  private fromHost(host: string): ServedCard | undefined {
    const known = this.byHost.get(host);
    if (known) return known;
    if (!HOST_FORM.test(host) || !this.draft.ok) return undefined;
    const card = served(this.draft.build(`http://${host.toLowerCase()}${this.endpointPath}`));
    if (this.byHost.size >= MAX_CARDS_BY_HOST) this.byHost.clear();
    this.byHost.set(host, card);
    return card;
  }
}

function served(card: object): ServedCard {
  const body = JSON.stringify(card);
  return { body, etag: `"${createHash('sha256').update(body).digest('base64url')}"` };
}

/**
 * `If-None-Match` against the card's tag: `*`, or any listed tag equal to it by the weak
 * comparison RFC 9110 prescribes for this header (a `W/` prefix is ignored).
 */
function matchesAny(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  return ifNoneMatch.split(',').some((part) => {
    const tag = part.trim();
    return tag === '*' || (tag.startsWith('W/') ? tag.slice(2) : tag) === etag;
  });
}
