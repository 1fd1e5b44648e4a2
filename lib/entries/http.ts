/**
 * `phantom-mcp/http`: serving a server over Streamable HTTP. The handler a host mounts (Node's
 * `http`, Express, Fastify, Hono...), the web-standard fetch handler, the health options, the server card, and the error adapters for hosts that parse bodies first.
 *
 * `HttpOptions` and `ListenOptions` are in the root entry (`phantom-mcp`), with the server whose
 * `listen()` and `httpHandler()` take them.
 *
 * @example
 * import { StreamableHttpHandler, expressJsonErrors } from 'phantom-mcp/http';
 *
 * @module phantom-mcp/http
 */
export { StreamableHttpHandler } from '../transport/http/streamable-http.handler';
export type { HealthOptions, ReadinessCheck } from '../transport/http/http-options';
export {
  SERVER_CARD_SCHEMA, SERVER_CARD_MEDIA_TYPE, isRegistryName,
  type ServerCard, type ServerCardOptions, type ServerCardHeader, type ServerCardRemote,
} from '../transport/http/server-card';
export { DEFAULT_CARD_MAX_AGE_SEC } from '../transport/http/server-card.endpoint';
export type { Authenticate, AuthDecision, AuthRequest } from '../core/auth-decision';
export { requestDeadlines, type HttpListener } from '../transport/http/http-listener';
export { hostAllowed } from '../transport/http/request-guards';
export { expressJsonErrors } from '../transport/http/hosts/express-json-errors';
export { fastifyJsonErrors } from '../transport/http/hosts/fastify-json-errors';
export type {
  ExpressErrorMiddleware, ExpressNext, FastifyErrorHandler, FastifyReplyLike, FastifyRequestLike,
} from '../transport/http/hosts/host-shapes.types';
export type { FetchHandler } from '../transport/fetch/fetch-handler';
export type { BodyRequest, StreamBodyRequest } from '../transport/http/body-reader';
export type { HttpRequestLike, HttpResponseLike } from '../transport/http/http-like.types';
