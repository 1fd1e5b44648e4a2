import type { HttpRequestLike, HttpResponseLike } from './http-like.types';
import type { Diagnostics } from '../../core/diagnostics';
import type { ErrorObject } from '../../core/error-mapper';
import { isPlainData } from '../../protocol/principal';
import type { Authenticate, AuthDecision } from '../../core/auth-decision';
import { PhantomError } from '../../core/errors';
import type { HttpOptions } from './http-options';
import { INTERNAL_ERROR, refusals, replyError, replyStatus } from './http-replies';
import { header, hostAllowed, originAllowed, repeatedHeader } from './request-guards';

export const SESSION_HEADER = 'mcp-session-id';
export const VERSION_HEADER = 'mcp-protocol-version';
const EXPOSE_HEADERS = `${SESSION_HEADER}, ${VERSION_HEADER}, www-authenticate`;
const BASE_ALLOW_HEADERS = Object.freeze(['content-type', 'accept', 'authorization', SESSION_HEADER, VERSION_HEADER, 'last-event-id']);
const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});
const ALLOW_ANYONE: AuthDecision = Object.freeze({ allow: true });

/** What the guards established about one request, for the verb that answers it. */
export interface RequestContext<V> {
  /** The handler of the request's HTTP method. */
  readonly verb: V;
  /** Who the `authenticate` hook let in (`undefined` without a hook). */
  readonly principal: unknown;
  /** CORS headers for every answer to the request (none unless an allowed browser Origin sent it). */
  readonly cors: Readonly<Record<string, string>>;
  /** The `Mcp-Session-Id` header, if sent. */
  readonly sessionId: string | undefined;
  /** The `MCP-Protocol-Version` header, if sent. */
  readonly version: string | undefined;
}

/** What the guards answer instead of a verb: a refusal with its JSON-RPC error, or a preflight's bare 204. */
export class GuardAnswer {
  constructor(readonly status: number, readonly headers: Readonly<Record<string, string>>, readonly error?: ErrorObject) {}

  send(res: HttpResponseLike): void {
    if (this.error) replyError(res, this.status, this.error, this.headers);
    else replyStatus(res, this.status, this.headers);
  }
}

export type GuardOptions = Pick<HttpOptions, 'allowedHosts' | 'allowedOrigins' | 'corsAllowHeaders' | 'authenticate' | 'auth'>;

/**
 * Everything checked before a request reaches its verb, in order: no repeated routing header, an
 * allowed Host (DNS rebinding) and Origin, the CORS preflight, a method the endpoint serves, then
 * authentication and a principal that is plain data. Either one `RequestContext` or the answer.
 * Synchronous unless the `authenticate` hook is not.
 */
export class RequestGate<V> {
  private readonly allowMethods: string;
  private readonly allowHeaders: string;
  private readonly hook: Authenticate | undefined;
  /** The OAuth resource server builds its principals from parsed JSON: plain data by construction, not checked again per request. */
  private readonly principalsArePlain: boolean;

  /** `scopesNeeded`: what every operation needs, named in the 401 challenges of `auth` (see `OAuthResourceServer#authenticate`). */
  constructor(
    private readonly verbs: ReadonlyMap<string, V>,
    private readonly options: GuardOptions,
    private readonly diagnostics: Diagnostics,
    scopesNeeded: () => readonly string[] = () => [],
  ) {
    this.allowMethods = [...verbs.keys(), 'OPTIONS'].join(', ');
    this.allowHeaders = [...BASE_ALLOW_HEADERS, ...(options.corsAllowHeaders ?? [])].join(', ');
    if (options.auth && options.authenticate) {
      throw new PhantomError('http_auth_conflict', 'HTTP options: set either auth (an OAuth resource server) or authenticate (a hook of your own), not both');
    }
    const { auth } = options;
    this.hook = auth ? (request) => auth.authenticate(request, scopesNeeded) : options.authenticate;
    this.principalsArePlain = options.auth !== undefined;
  }

  check(req: HttpRequestLike): RequestContext<V> | GuardAnswer | Promise<RequestContext<V> | GuardAnswer> {
    const cors = this.corsHeaders(req);
    const repeated = repeatedHeader(req);
    if (repeated) return new GuardAnswer(400, cors, refusals.badRequest(`the ${repeated} header was sent more than once`));
    if (!hostAllowed(req, this.options.allowedHosts)) return new GuardAnswer(403, cors, refusals.forbidden('Host not allowed'));
    if (!originAllowed(req, this.options.allowedOrigins)) return new GuardAnswer(403, cors, refusals.forbidden('Origin not allowed'));
    if (req.method === 'OPTIONS') return new GuardAnswer(204, { ...cors, 'access-control-allow-methods': this.allowMethods, 'access-control-max-age': '86400' });
    const verb = this.verbs.get(req.method ?? '');
    if (verb === undefined) return new GuardAnswer(405, { ...cors, allow: this.allowMethods }, refusals.methodNotAllowed(req.method ?? ''));
    let pending: AuthDecision | Promise<AuthDecision>;
    try {
      pending = this.authenticate(req);
    } catch (error) {
      return this.hookFailed(error, cors);
    }
    if (pending instanceof Promise) return pending.then((decision) => this.decide(req, verb, cors, decision), (error: unknown) => this.hookFailed(error, cors));
    return this.decide(req, verb, cors, pending);
  }

  private decide(req: HttpRequestLike, verb: V, cors: Readonly<Record<string, string>>, decision: AuthDecision): RequestContext<V> | GuardAnswer {
    if (!decision.allow) return refusalOf(decision, cors);
    if (decision.principal !== undefined && !this.principalsArePlain && !isPlainData(decision.principal)) {
      this.diagnostics.error('the authenticate hook returned a principal that is not plain data (JSON values only); refusing the request');
      return new GuardAnswer(500, cors, INTERNAL_ERROR);
    }
    return { verb, principal: decision.principal, cors, sessionId: header(req, SESSION_HEADER), version: header(req, VERSION_HEADER) };
  }

  private hookFailed(error: unknown, cors: Readonly<Record<string, string>>): GuardAnswer {
    this.diagnostics.error('the authenticate hook failed; refusing the request', error);
    return new GuardAnswer(500, cors, INTERNAL_ERROR);
  }

  private authenticate(req: HttpRequestLike): AuthDecision | Promise<AuthDecision> {
    if (!this.hook) return ALLOW_ANYONE;
    return this.hook({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
  }

  private corsHeaders(req: HttpRequestLike): Readonly<Record<string, string>> {
    const origin = req.headers.origin;
    if (origin === undefined || !originAllowed(req, this.options.allowedOrigins)) return NO_HEADERS;
    return {
      'access-control-allow-origin': origin,
      'access-control-expose-headers': EXPOSE_HEADERS,
      'access-control-allow-headers': this.allowHeaders,
      vary: 'origin',
    };
  }
}

type Refusal = Extract<AuthDecision, { allow: false }>;

/** What each refusal of the hook is answered with: its status, its challenge, and its JSON-RPC error. */
const REFUSALS: { readonly [S in Refusal['status']]: (decision: Extract<Refusal, { status: S }>, cors: Readonly<Record<string, string>>) => GuardAnswer } = {
  401: (decision, cors) => new GuardAnswer(401, { ...cors, 'www-authenticate': decision.wwwAuthenticate }, refusals.unauthorized(decision.message ?? 'authentication required')),
  403: (decision, cors) => new GuardAnswer(403, decision.wwwAuthenticate === undefined ? cors : { ...cors, 'www-authenticate': decision.wwwAuthenticate }, refusals.forbidden(decision.message ?? 'access denied')),
  503: (decision, cors) => new GuardAnswer(503, { ...cors, 'retry-after': String(decision.retryAfterSec) }, refusals.serviceUnavailable(decision.message ?? 'the credentials cannot be checked now; retry later')),
};

function refusalOf(decision: Refusal, cors: Readonly<Record<string, string>>): GuardAnswer {
  return (REFUSALS[decision.status] as (decision: Refusal, cors: Readonly<Record<string, string>>) => GuardAnswer)(decision, cors);
}
