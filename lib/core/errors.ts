import { ErrorCode } from './error-codes';
import type { CallToolResult } from './wire.types';

/**
 * An error that goes on the wire as a JSON-RPC error object. Thrown by the framework (and by
 * user code that wants a specific JSON-RPC error); mapped by `error-mapper.ts`.
 */
export class ProtocolError extends Error {
  override readonly name: string = 'ProtocolError';
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  /** A -32602 (invalid params) error: the request's parameters are wrong; `message` says how, for the caller. */
  static invalidParams(message: string, data?: unknown): ProtocolError {
    return new ProtocolError(ErrorCode.InvalidParams, message, data);
  }

  /** A -32601 (method not found) error naming `method`. */
  static methodNotFound(method: string): ProtocolError {
    return new ProtocolError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
  }

  /** The JSON-RPC error object sent on the wire: `code`, `message`, and `data` when there is any. */
  toJSON(): { code: number; message: string; data?: unknown } {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }
}

/**
 * A guard's refusal: the caller may not use this target (a guard that returns `false` means the
 * same, with a generic message). Goes on the wire as -32003 (`ErrorCode.Forbidden`); in the
 * stateless era over HTTP with status 403. Say why in words the caller can act on.
 *
 * @example
 * canActivate({ context }: ExecutionContext) {
 *   if (!hasScope(context.principal, 'notes:write')) throw new ForbiddenError('This needs the notes:write scope');
 *   return true;
 * }
 */
export class ForbiddenError extends ProtocolError {
  override readonly name: string = 'ForbiddenError';
  constructor(message = 'Forbidden: a guard refused this call', data?: unknown) {
    super(ErrorCode.Forbidden, message, data);
  }
}

/**
 * A call that needs OAuth scopes the caller's token does not grant (`@RequireScopes`, the `scopes`
 * option, or a `ScopeGuard`). On the wire -32003 (`ErrorCode.Forbidden`) with
 * `data: { requiredScopes, missingScopes }`; over HTTP, in both eras, the request is answered 403
 * with `WWW-Authenticate: Bearer error="insufficient_scope", scope="<requiredScopes>"` (RFC 6750
 * section 3.1), which tells the client which scopes to ask the authorization server for (a step-up).
 */
export class InsufficientScopeError extends ForbiddenError {
  override readonly name: string = 'InsufficientScopeError';
  constructor(
    /** Every scope the call needs (what a step-up asks for). */
    readonly requiredScopes: readonly string[],
    /** Those of them the caller lacks. */
    readonly missingScopes: readonly string[],
    target?: string,
  ) {
    super(
      `Insufficient scope: ${target === undefined ? 'this call' : target} needs the scope${requiredScopes.length === 1 ? '' : 's'} ${requiredScopes.join(' ')} (missing: ${missingScopes.join(' ')})`,
      { requiredScopes: [...requiredScopes], missingScopes: [...missingScopes] },
    );
  }
}

/**
 * The scopes a refused call needs, when `error` is an `InsufficientScopeError`'s (-32003 with
 * `data.requiredScopes`): what the HTTP answer's `insufficient_scope` challenge names. Read once,
 * where the protocol turns an error into a refusal.
 */
export function requiredScopesOf(error: { readonly code: number; readonly data?: unknown }): readonly string[] | undefined {
  if (error.code !== ErrorCode.Forbidden) return undefined;
  const scopes = (error.data as { requiredScopes?: unknown } | undefined)?.requiredScopes;
  return Array.isArray(scopes) && scopes.length > 0 && scopes.every((scope) => typeof scope === 'string') ? scopes : undefined;
}

/**
 * Thrown by a guard (or an interceptor) to answer exactly as if the target did not exist: the
 * unknown tool, unknown prompt or resource-not-found error of the era, so the caller cannot tell
 * a hidden target from a missing one. It decides per call: to leave the target out of lists too,
 * say the same in the server's `visible` rule.
 */
export class HiddenError extends Error {
  override readonly name = 'HiddenError';
  constructor() {
    super('The target is hidden from this caller; it is answered as unknown');
  }
}

/**
 * Thrown by a handler to say what went wrong in words the caller can act on. In a tool it becomes
 * a result with `isError: true` carrying `message` (the model reads it); in a prompt, a resource
 * or a completion it becomes the JSON-RPC error -32602 (invalid params) with `message`.
 *
 * @example
 * if (!user) throw new ToolError(`No user named ${args.name}; call list_users first`);
 */
export class ToolError extends Error {
  override readonly name: string = 'ToolError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/**
 * Thrown by a resource handler for a URI it does not serve (returning `undefined` or `null` says
 * the same). The client gets "resource not found" for the URI being read: -32002 with `data.uri`
 * in the session era, -32602 with `data.uri` in the stateless era. `message`, when given, is the
 * error message the client sees.
 *
 * @example
 * const note = this.notes.get(slug);
 * if (!note) throw new ResourceNotFoundError(`No note named ${slug}`);
 */
export class ResourceNotFoundError extends Error {
  override readonly name = 'ResourceNotFoundError';
  constructor(readonly clientMessage?: string, options?: { cause?: unknown }) {
    super(clientMessage ?? 'Resource not found', options);
  }
}

/**
 * The client failed a request of the server's (`elicitation/create`, `sampling/createMessage`,
 * `roots/list`): it answered with a JSON-RPC error, or with a result that is not what the method
 * returns. That is the client's failure, not a protocol error of this server, so it never goes on
 * the wire as one: `ctx.elicit`, `ctx.sample` and `ctx.listRoots` reject with it, and a tool that
 * lets it pass ends with an `isError` result carrying its message.
 *
 * @example
 * try {
 *   return await ctx.sample(params);
 * } catch (error) {
 *   if (error instanceof ClientError) return `No model to ask (the client said: ${error.clientMessage})`;
 *   throw error;
 * }
 */
export class ClientError extends Error {
  override readonly name = 'ClientError';
  private constructor(
    /** The server's request that the client failed, e.g. `elicitation/create`. */
    readonly method: string,
    /** The client's JSON-RPC error code; `undefined` for a malformed result or a code that is not an integer. */
    readonly code: number | undefined,
    /** What the client said (its error's message), or what is wrong with its result. */
    readonly clientMessage: string,
    /** The client's error `data`, as sent. */
    readonly data: unknown,
    message: string,
  ) {
    super(message);
  }

  /** The client answered with an error object (checked here: it comes from the wire as it is). */
  static answered(method: string, error: { readonly code?: unknown; readonly message?: unknown; readonly data?: unknown }): ClientError {
    const code = Number.isSafeInteger(error.code) ? (error.code as number) : undefined;
    const said = typeof error.message === 'string' ? error.message : 'no message';
    const label = code === undefined ? 'an error' : `error ${code}`;
    return new ClientError(method, code, said, error.data, `The client answered ${method} with ${label}: ${said}`);
  }

  /** The client answered with a result that is not what the method returns. */
  static malformed(method: string, problem: string): ClientError {
    return new ClientError(method, undefined, problem, undefined, `The client's answer to ${method} is malformed: ${problem}`);
  }
}

/**
 * A framework error with a stable string code: misuse of the API, a bad definition, a missing
 * connection. It never goes on the wire as itself; the mapper turns it into a generic failure.
 */
export class PhantomError extends Error {
  override readonly name: string = 'PhantomError';
  constructor(
    readonly code: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * The codes of a wait on the client that ended because of the client: it cancelled the call (a
 * `ctx.sleep` ends with `cancelled`), its session or task ended, or it never answered. No fault of the server, and a client can cause as
 * many as it likes, so they are reported at debug level only.
 */
const CLIENT_CAUSED: ReadonlySet<string> = new Set(['request_aborted', 'request_timeout', 'session_closed', 'task_ended', 'cancelled', 'pending_bytes']);

/** Whether `error` is a wait on the client ended by the client (see `CLIENT_CAUSED`). */
export function isClientCaused(error: unknown): error is PhantomError {
  return error instanceof PhantomError && CLIENT_CAUSED.has(error.code);
}

/**
 * What the server shares with its replicas (the `store` option: Redis) cannot be reached now.
 * A request that needed it is answered as the transport answers an unavailable service (HTTP
 * 503 with `Retry-After`, JSON-RPC -32603), and the next one tries again: the connections
 * come back by themselves.
 */
export class StoreUnavailableError extends PhantomError {
  override readonly name: string = 'StoreUnavailableError';
}

/** Every problem the scanner found in the user's classes, reported at once. */
export class DefinitionError extends PhantomError {
  override readonly name = 'DefinitionError';
  constructor(readonly problems: readonly string[]) {
    super('definition_invalid', `Invalid MCP definitions (${problems.length}):\n  - ${problems.join('\n  - ')}`);
  }
}

/**
 * Ends a `tools/call` with `result`, from inside the handler's context: thrown by an extension's
 * elicitation fallback (`Extension.elicitationFallback`) when the call must end to ask the user
 * elsewhere (MCP Apps shows the form in a View and the call resumes when the View submits it).
 * The pipeline answers the call with `result` as it is: not an error, not checked against the
 * tool's output schema. User code, guards and interceptors should let it pass, as they let
 * `InputRequiredSignal` pass.
 */
export class CallEndedSignal extends Error {
  override readonly name = 'CallEndedSignal';
  constructor(readonly result: CallToolResult) {
    super('The call ended with a result an extension gave (the user is asked elsewhere)');
  }
}

/**
 * Ends a stateless-era round: the handler asked the client for input (elicitation, sampling,
 * roots) that the request does not carry yet. The protocol layer answers `input_required`; user
 * code should let it pass (a `catch` that swallows it turns the round into an ordinary failure).
 */
export class InputRequiredSignal extends Error {
  override readonly name = 'InputRequiredSignal';
  constructor() {
    super('The request needs input from the client; the protocol layer answers input_required');
  }
}
