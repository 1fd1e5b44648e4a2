import { PARSE_ERROR } from '../../../core/jsonrpc';
import type { ErrorObject } from '../../../core/error-mapper';
import { HttpError, refusals } from '../http-replies';

/**
 * Why a host framework's body parser refused a body before the MCP handler saw it: the two
 * failures the MCP handler answers itself when it reads a body.
 */
export type ParserFailure =
  | { readonly kind: 'malformed' }
  | { readonly kind: 'too_large'; readonly limit?: number };

export const MALFORMED: ParserFailure = Object.freeze({ kind: 'malformed' });

/** The answer the MCP handler gives such a body when it reads it itself: 400 with -32700, or 413 with a JSON-RPC error. */
export interface ParserFailureAnswer {
  readonly status: number;
  readonly error: ErrorObject;
  readonly headers: Readonly<Record<string, string>>;
}

const HOST_TOO_LARGE: ErrorObject = Object.freeze({ code: HttpError.ServerError, message: 'Payload Too Large: the body exceeds the host\'s body parser limit' });

const ANSWERS: { readonly [K in ParserFailure['kind']]: (failure: Extract<ParserFailure, { kind: K }>) => ParserFailureAnswer } = Object.freeze({
  malformed: () => ({ status: 400, error: PARSE_ERROR, headers: {} }),
  // The parser stopped reading: the rest of the body is not worth it, so the connection closes.
  too_large: ({ limit }) => ({ status: 413, error: limit === undefined ? HOST_TOO_LARGE : refusals.tooLarge(limit), headers: { connection: 'close' } }),
});

export function answerOf(failure: ParserFailure): ParserFailureAnswer {
  return (ANSWERS[failure.kind] as (failure: ParserFailure) => ParserFailureAnswer)(failure);
}

/** A byte limit a host put on its error, when it is one. */
export function limitOf(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}
