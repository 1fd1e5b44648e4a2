import type { HttpRequestLike, HttpResponseLike } from './http-like.types';
import type { OAuthResourceServer } from '../../auth/oauth-resource-server';
import { refusals, replyError, writeJson } from './http-replies';
import { VERSION_HEADER } from './request-gate';

/** RFC 9728's well-known path, without the resource's path after it (the form clients try last). */
export const PROTECTED_RESOURCE_ROOT_PATH = '/.well-known/oauth-protected-resource';

/**
 * The document is public (it only says where tokens come from), so any origin may read it and
 * browsers may send the header a client adds to discovery requests; no credentials are involved.
 */
const CORS = Object.freeze({
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, HEAD, OPTIONS',
  'access-control-allow-headers': VERSION_HEADER,
});
const ALLOWED = Object.freeze({ ...CORS, allow: 'GET, HEAD, OPTIONS' });

/**
 * The protected-resource metadata (RFC 9728) of an endpoint behind `auth`, answered before the
 * Host, Origin and token checks: a client reads it to learn where to get a token, before it has
 * one. Served at the path of `auth.resourceMetadataUrl` (the path-suffixed form for a resource
 * below the root: `/.well-known/oauth-protected-resource/mcp`) and at the root form. The scopes
 * listed are read on each request, so tools added at runtime show up.
 */
export class ProtectedResourceEndpoint {
  private readonly paths: ReadonlySet<string>;

  constructor(private readonly auth: OAuthResourceServer, private readonly declaredScopes: () => readonly string[]) {
    this.paths = new Set([new URL(auth.resourceMetadataUrl).pathname, PROTECTED_RESOURCE_ROOT_PATH]);
  }

  /** Whether `url` (a request's target, query included) is the document's. */
  serves(url: string | undefined): boolean {
    if (url === undefined) return false;
    const query = url.indexOf('?');
    return this.paths.has(query === -1 ? url : url.slice(0, query));
  }

  answer(req: HttpRequestLike, res: HttpResponseLike): void {
    if (req.method === 'OPTIONS') {
      res.writeHead(204, { ...CORS, 'access-control-max-age': '86400' });
      res.end();
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return replyError(res, 405, refusals.methodNotAllowed(req.method ?? ''), ALLOWED);
    const body = JSON.stringify(this.auth.metadata(undefined, this.declaredScopes()));
    if (req.method === 'GET') return writeJson(res, 200, CORS, body);
    res.writeHead(200, { ...CORS, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) });
    res.end();
  }
}
