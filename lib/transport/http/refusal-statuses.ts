import type { RefusalKind } from '../../protocol/refusal';

/**
 * The one table from the protocol's refusal kinds to HTTP statuses (Streamable HTTP, both eras).
 * A message that was not refused is answered with 200 (202 when there is nothing to answer).
 */
export const REFUSAL_STATUS: Readonly<Record<RefusalKind, number>> = Object.freeze({
  'session-required': 400,
  'session-not-found': 404,
  'other-principal': 403,
  'unsupported-version': 400,
  'invalid-request': 400,
  'invalid-params': 400,
  'header-mismatch': 400,
  'method-not-found': 404,
  'forbidden': 403,
  // RFC 6750 section 3.1, and the MCP authorization spec's step-up: with a challenge naming the scopes.
  'insufficient-scope': 403,
  'rate-limited': 429,
  'missing-capability': 400,
  'too-many-sessions': 503,
  'too-many-streams': 503,
  'server-closing': 503,
  'store-unavailable': 503,
  'overloaded': 503,
  'internal-error': 500,
});

/** The status of an answer: its refusal's, or 200. */
export function statusOf(refusal: RefusalKind | undefined): number {
  return refusal === undefined ? 200 : REFUSAL_STATUS[refusal];
}

/** How long a client should wait before it tries again while the shared store is away, in seconds. */
export const STORE_RETRY_AFTER_SEC = 1;

/**
 * Headers a refusal adds: a closing server asks the client not to reuse the connection; a node
 * whose shared store is away says when to try again.
 */
export function refusalHeaders(refusal: RefusalKind | undefined, headers: Readonly<Record<string, string>>): Readonly<Record<string, string>> {
  if (refusal === 'server-closing') return { ...headers, connection: 'close' };
  if (refusal === 'store-unavailable' || refusal === 'overloaded') return { ...headers, 'retry-after': String(STORE_RETRY_AFTER_SEC) };
  return headers;
}
