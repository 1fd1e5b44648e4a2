import { ErrorCode } from './error-codes';
import { ClientError, InputRequiredSignal, isClientCaused, ProtocolError, ResourceNotFoundError, ToolError } from './errors';
import type { Diagnostics } from './diagnostics';

/**
 * The one place that decides what a thrown value becomes on the wire as a JSON-RPC error (what it
 * becomes inside a tool, an `isError` result, is decided in `results/tool-failure.ts` from the same
 * error classes).
 * - `ProtocolError`: its own JSON-RPC error, as thrown.
 * - `ToolError` in a tool: a result with `isError: true` and its message; elsewhere (a prompt, a
 *   resource, a completion): -32602 with its message, the request cannot be served as asked.
 * - `ResourceNotFoundError` in a resource handler: not found for the URI being read.
 * - `ClientError` (the client failed a request of ours) in a tool: an `isError` result; elsewhere it is
 *   an internal error of the request carrying what went wrong (the client's own words), never the
 *   client's code forwarded as ours, and nothing is logged: the client can cause it at will.
 * - a wait on the client that the client ended (`isClientCaused`): an internal error with its
 *   message, reported at debug level only.
 * - anything else: a generic message (the detail goes to diagnostics, never to the client).
 */
export interface ErrorObject {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

/** Any failure of a request as a JSON-RPC error object. */
export function toErrorObject(error: unknown, label: string, diagnostics: Diagnostics): ErrorObject {
  if (error instanceof ProtocolError) return error.toJSON();
  if (error instanceof ToolError) return { code: ErrorCode.InvalidParams, message: error.message };
  if (error instanceof InputRequiredSignal || error instanceof ClientError) return { code: ErrorCode.InternalError, message: error.message };
  if (isClientCaused(error)) {
    diagnostics.debug?.(`${label}: ${error.message}`);
    return { code: ErrorCode.InternalError, message: error.message };
  }
  diagnostics.error(`${label} failed`, error);
  return { code: ErrorCode.InternalError, message: 'Internal error' };
}

/** Arguments that failed validation: one actionable line per failing property. */
export function invalidArguments(what: string, issues: readonly string[]): string {
  return `Invalid arguments for ${what}:\n${issues.map((issue) => `- ${issue}`).join('\n')}`;
}

/** A request beyond the session's cap on requests running at once (`maxInFlightPerSession`). */
export function tooManyRequests(limit: number, holder = 'session'): ErrorObject {
  return {
    code: ErrorCode.TooManyRequests,
    message: `Too many requests in flight: this ${holder} already has ${limit} running; send more when one has finished`,
    data: { maxInFlightPerSession: limit },
  };
}

/** A request whose id is that of a request of the same session still running: ids must be unique. */
export function requestIdInUse(id: string | number, holder = 'session'): ErrorObject {
  return { code: ErrorCode.InvalidRequest, message: `Invalid Request: id ${JSON.stringify(id)} is already used by a request of this ${holder} that is still running` };
}

/** A `resources/read` for a URI nothing serves (session era: -32002 with `data.uri`). */
export function resourceNotFound(uri: string, message = `Resource not found: ${uri}`, cause?: unknown): ProtocolError {
  return new ProtocolError(ErrorCode.ResourceNotFound, message, { uri }, { cause });
}

/** What a resource handler's throw becomes: its `ResourceNotFoundError` names the URI being read. */
export function resourceReadFailure(error: unknown, uri: string): unknown {
  return error instanceof ResourceNotFoundError ? resourceNotFound(uri, error.clientMessage, error) : error;
}
