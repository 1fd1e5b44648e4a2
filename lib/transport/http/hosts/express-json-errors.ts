import { failure } from '../../../core/jsonrpc';
import { writeJson } from '../http-replies';
import type { ExpressErrorMiddleware } from './host-shapes.types';
import { answerOf, limitOf, MALFORMED, type ParserFailure } from './parser-failures';

/** body-parser's failures (`express.json()`, and Nest's parser on Express), by the `type` it gives them. */
const BODY_PARSER_FAILURES: ReadonlyMap<string, (error: { readonly limit?: unknown }) => ParserFailure> = new Map([
  ['entity.parse.failed', () => MALFORMED],
  ['entity.too.large', ({ limit }: { readonly limit?: unknown }): ParserFailure => ({ kind: 'too_large', limit: limitOf(limit) })],
]);

/**
 * An Express error middleware that answers the failures of a body parser in front of the MCP
 * handler as the handler answers them itself: malformed JSON gets 400 with a JSON-RPC -32700
 * error, a body over the parser's `limit` gets 413 with a JSON-RPC error body. Any other error,
 * or one after the response started, goes on to the next error handler unchanged.
 *
 * Mount it after the parser (Express calls an error middleware only for errors raised before
 * it), on the MCP path so that other routes keep their own error pages. Nest on Express takes
 * it too, through `app.use` right after `app.useBodyParser('json', ...)`: an error middleware
 * rather than a Nest exception filter, because Nest turns body-parser's parse error into a
 * `BadRequestException` that keeps only the message, which a filter could not tell from a
 * controller's own.
 *
 * @example
 * app.use(express.json({ limit: '4mb' }));
 * app.all('/mcp', handler.handle);
 * app.use('/mcp', expressJsonErrors());
 */
export function expressJsonErrors(): ExpressErrorMiddleware {
  return function mcpJsonErrors(error, _req, res, next) {
    const parserFailure = parserFailureOf(error);
    if (parserFailure === undefined || res.headersSent) return next(error);
    const { status, error: errorObject, headers } = answerOf(parserFailure);
    writeJson(res, status, headers, JSON.stringify(failure(null, errorObject)));
  };
}

function parserFailureOf(error: unknown): ParserFailure | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { type } = error as { readonly type?: unknown };
  const recognise = typeof type === 'string' ? BODY_PARSER_FAILURES.get(type) : undefined;
  return recognise?.(error as { readonly limit?: unknown });
}
