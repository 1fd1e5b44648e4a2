/** The parameters of a `WWW-Authenticate: Bearer ...` challenge (RFC 6750 section 3, RFC 9728 section 5.1). */
export interface BearerChallenge {
  /** Where the protected-resource metadata is (RFC 9728): how a client finds the authorization server. */
  readonly resourceMetadata?: string;
  /** `invalid_request`, `invalid_token` or `insufficient_scope`; none when the request carried no token. */
  readonly error?: 'invalid_request' | 'invalid_token' | 'insufficient_scope';
  /** Words for the developer; never the token. */
  readonly errorDescription?: string;
  /** The scopes the request needs (`insufficient_scope`), or the resource's. */
  readonly scopes?: readonly string[];
  readonly realm?: string;
}

/**
 * The value of a `WWW-Authenticate` header for a Bearer challenge. Every parameter is a quoted
 * string: `\` and `"` are escaped, and characters a header cannot carry (controls, CR, LF, anything
 * outside printable ASCII) are dropped, so no value can break the header or inject another.
 *
 * @example
 * bearerChallenge({ resourceMetadata: 'https://api.example.com/.well-known/oauth-protected-resource/mcp', error: 'invalid_token' })
 * // Bearer resource_metadata="https://api.example.com/.well-known/oauth-protected-resource/mcp", error="invalid_token"
 */
export function bearerChallenge(challenge: BearerChallenge): string {
  const params: [string, string | undefined][] = [
    ['realm', challenge.realm],
    ['resource_metadata', challenge.resourceMetadata],
    ['error', challenge.error],
    ['error_description', challenge.errorDescription],
    ['scope', challenge.scopes && challenge.scopes.length > 0 ? challenge.scopes.join(' ') : undefined],
  ];
  const written = params.filter(([, value]) => value !== undefined).map(([name, value]) => `${name}=${quoted(value!)}`);
  return written.length === 0 ? 'Bearer' : `Bearer ${written.join(', ')}`;
}

/** An RFC 9110 quoted-string holding `value`, restricted to what a header may carry. */
export function quoted(value: string): string {
  return `"${value.replace(/[^\x20-\x7E]/g, '').replace(/[\\"]/g, '\\$&')}"`;
}
