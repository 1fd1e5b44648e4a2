import { ErrorCode } from './error-codes';

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

  static invalidParams(message: string, data?: unknown): ProtocolError {
    return new ProtocolError(ErrorCode.InvalidParams, message, data);
  }

  static methodNotFound(method: string): ProtocolError {
    return new ProtocolError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
  }

  toJSON(): { code: number; message: string; data?: unknown } {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
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

/** Every problem the scanner found in the user's classes, reported at once. */
export class DefinitionError extends PhantomError {
  override readonly name = 'DefinitionError';
  constructor(readonly problems: readonly string[]) {
    super('definition_invalid', `Invalid MCP definitions (${problems.length}):\n  - ${problems.join('\n  - ')}`);
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
