import { ErrorCode } from '../core/error-codes';
import type { ErrorObject } from '../core/error-mapper';

/**
 * Why a message was refused as such, in the protocol's terms. Transports that answer with a
 * status of their own (HTTP) map each kind to one in a single table; a pipe has no status and
 * ignores the kind (the JSON-RPC error says it all).
 */
export type RefusalKind =
  /** The transport names sessions, and the message named none. */
  | 'session-required'
  /** The named session does not exist (never did, ended, or expired). */
  | 'session-not-found'
  /** The named session belongs to another principal. */
  | 'other-principal'
  /** The protocol version asked for is not served here. */
  | 'unsupported-version'
  /** Not a valid message here: malformed, a batch where none is taken, `initialize` naming a session. */
  | 'invalid-request'
  /** The message's params (or `_meta`) are malformed. */
  | 'invalid-params'
  /** Stateless era: the transport's mirrored headers disagree with the body. */
  | 'header-mismatch'
  /** Unknown method, or a target the caller may not see (hidden means unknown). */
  | 'method-not-found'
  /** A guard refused the call. */
  | 'forbidden'
  /** The call needs OAuth scopes the caller's token lacks (`InsufficientScopeError`): the outcome names them, for a step-up. */
  | 'insufficient-scope'
  | 'rate-limited'
  /** Stateless era: the request needs a client capability it did not declare. */
  | 'missing-capability'
  /** `initialize` while `maxSessions` sessions are open. */
  | 'too-many-sessions'
  /** Stateless era: `subscriptions/listen` while `maxListenStreams` streams are open on this node. */
  | 'too-many-streams'
  /** The server is closing: no new request is taken. */
  | 'server-closing'
  /** What the server shares with its replicas (Redis) cannot be reached now; retrying later may succeed. */
  | 'store-unavailable'
  /** The process's heap is nearly full (`maxHeapUsedRatio`): no new request is taken for now. */
  | 'overloaded'
  /** Something failed on our side before the message could be answered. */
  | 'internal-error';

/** A request refused as such, before any pipeline runs: why (the transport's status, where it has one), and the error sent. */
export interface Refusal {
  readonly kind: RefusalKind;
  readonly error: ErrorObject;
}

/**
 * The stateless era refuses a request whose serving raised one of these (those the revision names,
 * and the pipeline's refusals); any other error is an ordinary answer.
 */
export const REFUSAL_OF_CODE: ReadonlyMap<number, RefusalKind> = new Map<number, RefusalKind>([
  [ErrorCode.MissingRequiredClientCapability, 'missing-capability'],
  [ErrorCode.MethodNotFound, 'method-not-found'],
  [ErrorCode.Forbidden, 'forbidden'],
  [ErrorCode.RateLimited, 'rate-limited'],
  [ErrorCode.TooManyRequests, 'too-many-streams'],
]);

/** The transport-level errors of sessions (-32000 and -32001, the official SDKs' conventions). */
const SERVER_ERROR = -32000;
const SESSION_NOT_FOUND = -32001;

/** The error bodies of session refusals, spelled once for every transport. */
export const SessionRefusal = Object.freeze({
  required: Object.freeze({ code: SERVER_ERROR, message: 'Bad Request: Mcp-Session-Id header is required' }) as ErrorObject,
  notFound: Object.freeze({ code: SESSION_NOT_FOUND, message: 'Session not found' }) as ErrorObject,
  otherPrincipal: Object.freeze({ code: SERVER_ERROR, message: 'Forbidden: this session belongs to another principal' }) as ErrorObject,
  unsupportedVersion: (version: string): ErrorObject => ({ code: SERVER_ERROR, message: `Bad Request: unsupported MCP-Protocol-Version: ${version}` }),
  initializeNamesSession: Object.freeze({ code: ErrorCode.InvalidRequest, message: 'Invalid Request: initialize starts a new session and must not carry Mcp-Session-Id' }) as ErrorObject,
  notInitialised: Object.freeze({ code: ErrorCode.InvalidRequest, message: 'Invalid Request: the session is not initialised; send initialize first' }) as ErrorObject,
  statelessResponse: Object.freeze({ code: ErrorCode.InvalidRequest, message: 'Invalid Request: clients send no responses in this protocol version' }) as ErrorObject,
});
