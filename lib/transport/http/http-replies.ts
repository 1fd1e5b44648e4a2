import type { ServerResponse } from 'node:http';
import { ErrorCode } from '../../protocol/error-codes';
import { failure, type RequestId } from '../../protocol/jsonrpc';
import type { ErrorObject } from '../../protocol/error-mapper';

/** HTTP-level refusals carry a JSON-RPC error body too, so every client can read why. */
export const HttpError = Object.freeze({
  /** Generic transport-level failure (the SDKs' convention for HTTP errors). */
  ServerError: -32000,
  SessionNotFound: -32001,
});

/**
 * Writes a JSON body with its headers as one flat list: the hot path of every plain answer, so no
 * header object is built per response.
 */
export function writeJson(res: ServerResponse, status: number, headers: Readonly<Record<string, string>>, body: string): void {
  const flat: string[] = ['content-type', 'application/json', 'content-length', String(Buffer.byteLength(body))];
  for (const name in headers) flat.push(name, headers[name]);
  res.writeHead(status, flat);
  res.end(body);
}

export function replyError(
  res: ServerResponse,
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

export function replyStatus(res: ServerResponse, status: number, headers: Readonly<Record<string, string>> = {}): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(status, headers);
  res.end();
}

export const refusals = Object.freeze({
  badRequest: (message: string): ErrorObject => ({ code: HttpError.ServerError, message: `Bad Request: ${message}` }),
  invalidRequest: (message: string): ErrorObject => ({ code: ErrorCode.InvalidRequest, message: `Invalid Request: ${message}` }),
  sessionNotFound: (): ErrorObject => ({ code: HttpError.SessionNotFound, message: 'Session not found' }),
  forbidden: (message: string): ErrorObject => ({ code: HttpError.ServerError, message: `Forbidden: ${message}` }),
  notAcceptable: (message: string): ErrorObject => ({ code: HttpError.ServerError, message: `Not Acceptable: ${message}` }),
  unsupportedMediaType: (): ErrorObject => ({ code: HttpError.ServerError, message: 'Unsupported Media Type: Content-Type must be application/json' }),
  tooLarge: (limit: number): ErrorObject => ({ code: HttpError.ServerError, message: `Payload Too Large: the body exceeds ${limit} bytes` }),
  methodNotAllowed: (method: string): ErrorObject => ({ code: HttpError.ServerError, message: `Method Not Allowed: ${method}` }),
  conflict: (message: string): ErrorObject => ({ code: HttpError.ServerError, message: `Conflict: ${message}` }),
});
