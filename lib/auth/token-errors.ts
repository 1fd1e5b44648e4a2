/**
 * Why a token was refused: what the client did wrong (`invalid_token`: expired, for another
 * resource, from another issuer, badly signed, malformed). `description` is safe to send (it never
 * contains the token); `reason` is for diagnostics.
 */
export class TokenRejectedError extends Error {
  override readonly name = 'TokenRejectedError';
  constructor(readonly description: string, readonly reason: string, options?: { cause?: unknown }) {
    super(`${description} (${reason})`, options);
  }
}

/**
 * The authorization server (its metadata, its keys, its introspection endpoint) could not be
 * reached or answered what it must not: the token cannot be checked now, which says nothing
 * about the token. Answered 503 with `Retry-After`.
 */
export class AuthorizationServerUnavailableError extends Error {
  override readonly name = 'AuthorizationServerUnavailableError';
  constructor(message: string, readonly retryAfterMs: number, options?: { cause?: unknown }) {
    super(message, options);
  }
}
