/** JSON-RPC and MCP error codes, the only place they are spelled. */
export const ErrorCode = Object.freeze({
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /**
   * phantom-mcp's own (JSON-RPC's implementation-defined range): the session already has
   * `maxInFlightPerSession` requests running; send more when one has finished. Also a
   * `subscriptions/listen` while `maxListenStreams` are open (stateless era over HTTP: 503).
   */
  TooManyRequests: -32010,
  /**
   * phantom-mcp's own: a guard refused the call (`ForbiddenError`, or a guard that returned
   * `false`). Session era: a JSON-RPC error; stateless era over HTTP: status 403. Also a call
   * that needs OAuth scopes the token lacks (`InsufficientScopeError`), with
   * `data: { requiredScopes, missingScopes }`: over HTTP status 403 with an `insufficient_scope`
   * challenge, in both eras.
   */
  Forbidden: -32003,
  /**
   * phantom-mcp's own: the caller used up its rate limit (`RateLimitGuard`); `data.retryAfterMs`
   * says when the next call can pass. Session era: a JSON-RPC error; stateless era over HTTP: 429.
   */
  RateLimited: -32029,
  /**
   * The server is shutting down: a request that arrived once `close()` had started, or one still
   * running at its deadline (the code the official SDKs use for a closed connection); retry it
   * elsewhere.
   */
  ServerClosing: -32000,
  /** Session era: `initialize` while `maxSessions` sessions are open (HTTP 503); retry once one ends. */
  TooManySessions: -32005,
  /** Session era: a `resources/read` for a URI nothing serves. */
  ResourceNotFound: -32002,
  /** A tool cannot proceed until the user completes the URL elicitations in `data.elicitations`. */
  UrlElicitationRequired: -32042,
  /** Stateless era: HTTP headers missing, malformed, or disagreeing with the body. */
  HeaderMismatch: -32020,
  /** Stateless era: the request needs a client capability the client did not declare. */
  MissingRequiredClientCapability: -32021,
  /** Stateless era: the requested protocol version is not served here. */
  UnsupportedProtocolVersion: -32022,
} as const);

export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];
