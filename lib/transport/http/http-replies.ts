import type { HttpResponseLike } from './http-like.types';
import { ErrorCode } from '../../core/error-codes';
import { failure, type RequestId } from '../../core/jsonrpc';
import type { ErrorObject } from '../../core/error-mapper';
import type { BodyFailure, BodyLimits } from './body-reader';
import { SHUTDOWN_ERRORS } from '../../core/shutdown';
import { refusalHeaders, statusOf } from './refusal-statuses';

/** HTTP-level refusals carry a JSON-RPC error body too, so every client can read why. */
export const HttpError = Object.freeze({
  /** Generic transport-level failure (the SDKs' convention for HTTP errors). */
  ServerError: -32000,
});

/**
 * Writes a JSON body with its headers as one flat list: the hot path of every plain answer, so no
 * header object is built per response. `name` and `value`: one more header (a session's id), given
 * apart so that the caller builds no object to add it.
 */
export function writeJson(res: HttpResponseLike, status: number, headers: Readonly<Record<string, string>>, body: string, name?: string, value?: string): void {
  const length = String(Buffer.byteLength(body));
  // Built whole when it can be: a list that grows by `push` past its literal is copied.
  const flat: string[] = name === undefined
    ? ['content-type', 'application/json', 'content-length', length]
    : ['content-type', 'application/json', 'content-length', length, name, value as string];
  for (const header in headers) flat.push(header, headers[header]);
  res.writeHead(status, flat);
  res.end(body);
}

export function replyError(
  res: HttpResponseLike,
  status: number,
  error: ErrorObject,
  headers: Readonly<Record<string, string>> = {},
  id: RequestId | null = null,
): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  writeJson(res, status, headers, JSON.stringify(failure(id, error)));
}

export function replyStatus(res: HttpResponseLike, status: number, headers: Readonly<Record<string, string>> = {}): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(status, headers);
  res.end();
}

/** What a client learns of a failure on our side: nothing more. */
export const INTERNAL_ERROR: ErrorObject = Object.freeze({ code: ErrorCode.InternalError, message: 'Internal error' });

export const refusals = Object.freeze({
  badRequest: (message: string): ErrorObject => ({ code: HttpError.ServerError, message: `Bad Request: ${message}` }),
  invalidRequest: (message: string): ErrorObject => ({ code: ErrorCode.InvalidRequest, message: `Invalid Request: ${message}` }),
  unauthorized: (message: string): ErrorObject => ({ code: HttpError.ServerError, message: `Unauthorized: ${message}` }),
  forbidden: (message: string): ErrorObject => ({ code: HttpError.ServerError, message: `Forbidden: ${message}` }),
  notAcceptable: (message: string): ErrorObject => ({ code: HttpError.ServerError, message: `Not Acceptable: ${message}` }),
  unsupportedMediaType: (): ErrorObject => ({ code: HttpError.ServerError, message: 'Unsupported Media Type: Content-Type must be application/json' }),
  tooLarge: (limit: number): ErrorObject => ({ code: HttpError.ServerError, message: `Payload Too Large: the body exceeds ${limit} bytes` }),
  methodNotAllowed: (method: string): ErrorObject => ({ code: HttpError.ServerError, message: `Method Not Allowed: ${method}` }),
  conflict: (message: string): ErrorObject => ({ code: HttpError.ServerError, message: `Conflict: ${message}` }),
  requestTimeout: (ms: number): ErrorObject => ({ code: HttpError.ServerError, message: `Request Timeout: the body did not arrive within ${ms} ms` }),
  bodyConsumed: (): ErrorObject => ({
    code: HttpError.ServerError,
    message: 'Internal Server Error: a body parser read the request body before this handler and left nothing on req.body; '
      + 'pass the parsed body as handle(req, res, body), or mount the handler before the body parser',
  }),
  unreadableBody: (): ErrorObject => ({ code: ErrorCode.InvalidRequest, message: 'Invalid Request: the parsed body cannot be read as JSON (circular or too deeply nested)' }),
  serviceUnavailable: (message: string): ErrorObject => ({ code: HttpError.ServerError, message: `Service Unavailable: ${message}` }),
});

/** How each body failure is answered; an aborted request has no one left to answer. */
const BODY_REFUSALS: Readonly<Record<Exclude<BodyFailure, 'aborted'>, (limits: BodyLimits) => { status: number; error: ErrorObject; close: boolean }>> = Object.freeze({
  // The rest of a refused body is not worth reading: the connection closes after the answer.
  too_large: ({ maxBytes }) => ({ status: 413, error: refusals.tooLarge(maxBytes), close: true }),
  timeout: ({ timeoutMs }) => ({ status: 408, error: refusals.requestTimeout(timeoutMs), close: true }),
  consumed: () => ({ status: 500, error: refusals.bodyConsumed(), close: false }),
  unreadable: () => ({ status: 400, error: refusals.unreadableBody(), close: false }),
});

export function refuseBody(res: HttpResponseLike, failure: BodyFailure, limits: BodyLimits, headers: Readonly<Record<string, string>>, id: RequestId | null = null): void {
  if (failure === 'aborted') return;
  const { status, error, close } = BODY_REFUSALS[failure](limits);
  replyError(res, status, error, close ? { ...headers, connection: 'close' } : headers, id);
}

/** A request that came once closing had started: 503, and the client should not reuse the connection. */
export function refuseClosing(res: HttpResponseLike, headers: Readonly<Record<string, string>>, id: RequestId | null): void {
  replyError(res, statusOf('server-closing'), SHUTDOWN_ERRORS.refused, refusalHeaders('server-closing', headers), id);
}
