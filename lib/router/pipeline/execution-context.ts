import type { Context } from '../../context/context';
import type { Constructor } from '../../metadata/metadata-store';

/**
 * What an operation is about, for a guard or an interceptor that treats them differently:
 * - `tool`, `prompt`, `resource`: `tools/call`, `prompts/get`, `resources/read` (the target is the
 *   tool or prompt name, or the resource URI);
 * - `list`: `tools/list`, `prompts/list`, `resources/list`, `resources/templates/list`;
 * - `completion`: `completion/complete`;
 * - `subscription`: `resources/subscribe`, `resources/unsubscribe`, `subscriptions/listen`;
 * - `protocol`: `ping`, `logging/setLevel`, `server/discover`, the tasks methods;
 * - `extension`: a method an extension adds (`skills/list`, a user's own).
 */
export type OperationKind = 'tool' | 'prompt' | 'resource' | 'list' | 'completion' | 'subscription' | 'protocol' | 'extension';

/** Where a target is served: what `getClass()` and `getHandler()` give. */
export interface ServedBy {
  readonly owner: Constructor;
  readonly member: string;
}

/**
 * What a guard and an interceptor learn about the operation they take part in (NestJS's
 * `ExecutionContext`, for MCP). One is made per call, only when the call has guards or interceptors.
 */
export interface ExecutionContext {
  readonly kind: OperationKind;
  /** The JSON-RPC method, e.g. `tools/call`. */
  readonly method: string;
  /** The tool or prompt name, or the resource URI; `undefined` for methods without a target. */
  readonly target: string | undefined;
  /**
   * What the call names, as sent: the tool's or prompt's arguments, a template's variables
   * (`{}` for a fixed resource), or the request's params for other methods. Read it, do not change it.
   */
  readonly arguments: Readonly<Record<string, unknown>>;
  /** The handler's `Context`: `principal`, `sessionId`, `requestId`, `clientInfo`, and `get`/`set` for per-request data. */
  readonly context: Context;
  /** The provider class that serves the target; `undefined` for methods without one. */
  getClass(): Constructor | undefined;
  /** The method that serves the target (its `name` is the method's name); `undefined` for methods without one. */
  getHandler(): Function | undefined;
}

/** The one implementation: plain fields, the class lookups on the prototype, nothing made per call but itself. */
export class OperationCall implements ExecutionContext {
  readonly arguments: Readonly<Record<string, unknown>>;

  constructor(
    readonly kind: OperationKind,
    readonly method: string,
    readonly target: string | undefined,
    args: Readonly<Record<string, unknown>>,
    readonly context: Context,
    private readonly served?: ServedBy,
  ) {
    this.arguments = args;
  }

  getClass(): Constructor | undefined {
    return this.served?.owner;
  }

  getHandler(): Function | undefined {
    return this.served && (this.served.owner.prototype as Record<string, Function>)[this.served.member];
  }
}
