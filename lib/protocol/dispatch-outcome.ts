import { failure, type JsonRpcBatchResponse, type JsonRpcResponse, type RequestId } from '../core/jsonrpc';
import type { ErrorObject } from '../core/error-mapper';
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
 */
export type DispatchOutcome =
  | { readonly kind: 'answer'; readonly response: JsonRpcResponse | JsonRpcBatchResponse; readonly refusal?: RefusalKind; readonly sessionId?: string }
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

/** A request that came once the transport had started closing. */
export function closing(id: RequestId | null): DispatchOutcome {
  return refused('server-closing', id, SHUTDOWN_ERRORS.refused);
}
