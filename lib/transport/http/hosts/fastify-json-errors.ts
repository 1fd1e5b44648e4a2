import { failure } from '../../../core/jsonrpc';
import type { FastifyErrorHandler, FastifyRequestLike } from './host-shapes.types';
import { answerOf, limitOf, MALFORMED, type ParserFailure } from './parser-failures';

/** Fastify's JSON content-type parser's failures, by their `code`. */
const CONTENT_PARSER_FAILURES: ReadonlyMap<string, (request: FastifyRequestLike) => ParserFailure> = new Map([
  ['FST_ERR_CTP_INVALID_JSON_BODY', () => MALFORMED],
  // An empty body is no JSON text: the MCP handler answers it -32700 too.
  ['FST_ERR_CTP_EMPTY_JSON_BODY', () => MALFORMED],
  ['FST_ERR_CTP_BODY_TOO_LARGE', (request: FastifyRequestLike): ParserFailure => ({ kind: 'too_large', limit: limitOf(request.routeOptions?.bodyLimit) })],
]);

/**
 * A Fastify error handler that answers the failures of Fastify's JSON parser in front of the MCP
 * handler as the handler answers them itself: malformed JSON (or an empty body) gets 400 with a
 * JSON-RPC -32700 error, a body over `bodyLimit` gets 413 with a JSON-RPC error body. Any other
 * error is thrown on, to the enclosing error handler (in the end, Fastify's own).
 *
 * Give it to the MCP route (`errorHandler`), or to `setErrorHandler` in the plugin that holds it.
 *
 * @example
 * app.all('/mcp', { bodyLimit: 4 * 1024 * 1024, errorHandler: fastifyJsonErrors() }, async (request, reply) => {
 *   reply.hijack();
 *   await handler.handle(request.raw, reply.raw, request.body);
 * });
 */
export function fastifyJsonErrors(): FastifyErrorHandler {
  return function mcpJsonErrors(error, request, reply) {
    const parserFailure = parserFailureOf(error, request);
    if (parserFailure === undefined) throw error;
    const { status, error: errorObject, headers } = answerOf(parserFailure);
    let answer = reply.code(status).header('content-type', 'application/json');
    for (const name in headers) answer = answer.header(name, headers[name]);
    answer.send(JSON.stringify(failure(null, errorObject)));
  };
}

function parserFailureOf(error: unknown, request: FastifyRequestLike): ParserFailure | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code } = error as { readonly code?: unknown };
  const recognise = typeof code === 'string' ? CONTENT_PARSER_FAILURES.get(code) : undefined;
  return recognise?.(request);
}
