import { failure, type JsonRpcBatchResponse, type JsonRpcResponse, type RequestId } from '../core/jsonrpc';
import type { ErrorObject } from '../core/error-mapper';
import { requiredScopesOf } from '../core/errors';
import { SHUTDOWN_ERRORS } from '../core/shutdown';
import type { RefusalKind } from './refusal';

/**
 * What became of one incoming message (or batch), in the protocol's terms; a transport turns it
 * into bytes (and, on HTTP, a status from the refusal kind).
 * - `answer`: a response (or the responses of a batch) to send; `refusal` says why the message was
 *   refused as such, when it was.
 * - `accepted`: a notification or a response, nothing to answer; when refused as such (`refusal`),
 *   `response` is the error for transports that must answer every message (HTTP).
 * - `nothing`: the request was cancelled: no answer goes out.
 * `sessionId` is the session the message belongs to, when the transport did not name it (a new one).
 * `requiredScopes`, with the refusal `insufficient-scope`: the scopes the call needs (what an HTTP
 * challenge asks the client to get a token for).
 */
export type DispatchOutcome =
  | { readonly kind: 'answer'; readonly response: JsonRpcResponse | JsonRpcBatchResponse; readonly refusal?: RefusalKind; readonly sessionId?: string; readonly requiredScopes?: readonly string[] }
  | { readonly kind: 'accepted'; readonly refusal?: RefusalKind; readonly response?: JsonRpcResponse; readonly sessionId?: string }
  | { readonly kind: 'nothing' };

export const ACCEPTED: DispatchOutcome = Object.freeze({ kind: 'accepted' });
export const NOTHING: DispatchOutcome = Object.freeze({ kind: 'nothing' });

export function answer(response: JsonRpcResponse | JsonRpcBatchResponse): DispatchOutcome {
  return { kind: 'answer', response };
}

/** A request refused as such: its error, with its id. */
export function refused(refusal: RefusalKind, id: RequestId | null, error: ErrorObject): DispatchOutcome {
  return { kind: 'answer', response: failure(id, error), refusal };
}

/**
 * The answer to a request served with `response`: refused as `insufficient-scope` when its error
 * is an `InsufficientScopeError`'s (in either era: the step-up of the MCP authorization spec),
 * an ordinary answer otherwise.
 */
export function servedAnswer(response: JsonRpcResponse): DispatchOutcome {
  const requiredScopes = 'error' in response ? requiredScopesOf(response.error) : undefined;
  return requiredScopes === undefined ? { kind: 'answer', response } : scopeRefused(response, requiredScopes);
}

/** A call refused for want of `requiredScopes`. */
export function scopeRefused(response: JsonRpcResponse, requiredScopes: readonly string[]): DispatchOutcome {
  return { kind: 'answer', response, refusal: 'insufficient-scope', requiredScopes };
}

/** A request that came once the transport had started closing. */
export function closing(id: RequestId | null): DispatchOutcome {
  return refused('server-closing', id, SHUTDOWN_ERRORS.refused);
}
