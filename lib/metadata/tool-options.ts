import type { JsonObject, Icon, Meta } from '../core/wire.types';
import type { CacheHint } from './cache-hint';
import type { Constructor } from './metadata-store';

/** Options of `@Tool`, kept exactly as written; the scanner normalises them. */
export interface ToolOptions {
  /** Defaults to the method name; must match `^[A-Za-z0-9_.-]{1,64}$`. */
  readonly name?: string;
  readonly title?: string;
  /** Required: clients (and the conformance suite) reject tools without one. */
  readonly description?: string;
  /** The tool does not modify its environment (`readOnlyHint`). */
  readonly readOnly?: boolean;
  /** The tool may destroy data (`destructiveHint`). */
  readonly destructive?: boolean;
  /** Calling twice with the same arguments has no further effect (`idempotentHint`). */
  readonly idempotent?: boolean;
  /** The tool reaches an open world of external entities (`openWorldHint`). */
  readonly openWorld?: boolean;
  readonly icons?: readonly Icon[];
  readonly _meta?: Meta;
  /** The argument DTO, when the method's first parameter type cannot say (an interface, say). */
  readonly input?: Constructor;
  /**
   * A hand-written JSON Schema for the arguments, advertised verbatim instead of one compiled from
   * a DTO. It is compiled once at start-up (JSON Schema 2020-12 unless its `$schema` names 2019-09
   * or draft-07; an invalid schema is a start-up error) and every call's arguments must conform;
   * the handler receives them as sent, a plain object. `format` is not checked (an annotation in
   * 2020-12).
   */
  readonly inputSchema?: JsonObject;
  /**
   * Client capabilities the tool cannot work without (`'sampling'`, `'elicitation'`, `'roots'`).
   * A call from a client that lacks one is refused before the handler runs: -32021 in the
   * stateless era, an error result in the session era.
   */
  readonly requires?: readonly ('sampling' | 'elicitation' | 'roots')[];
  /** Caching hint for lists that include this tool (stateless era). */
  readonly cache?: CacheHint;
  /**
   * A DTO describing `structuredContent`; advertised as `outputSchema`. Every result is checked
   * against it (its class-validator rules and the advertised schema, `additionalProperties: false`
   * included) before it is sent: a mismatch, or a result with no structured content, becomes an
   * `isError` result naming the properties, the detail going to diagnostics. With `output`, the
   * method's return type must be assignable to the DTO (or be a `CallToolResult`, for errors).
   */
  readonly output?: Constructor;
  /**
   * OAuth scopes a caller's token must grant to use this tool (all of them), added to those of
   * `@RequireScopes` on the class and the method. A call without them is refused with
   * `InsufficientScopeError` (-32003, `data.requiredScopes`; over HTTP a 403 `insufficient_scope`);
   * with `visible: scopesVisibility()` the tool is hidden from such callers instead.
   */
  readonly scopes?: readonly string[];
  /**
   * Whether a call may run as a task (a long-running call the client polls, updates and cancels):
   * `'optional'` (when the client asks for one: `params.task` in 2025-11-25, the tasks extension
   * in 2026-07-28) or `'required'` (a call without is refused: -32601 in 2025-11-25, -32021 in
   * 2026-07-28). Default: never.
   */
  readonly task?: 'optional' | 'required';
  /**
   * When the task starts: `'at-once'` (default), before the handler runs (arguments are validated
   * first); `'explicit'`, when the handler calls `ctx.runAsTask()`: what it asks before that is
   * asked in the request itself (multi-round-trip input in 2026-07-28).
   */
  readonly taskStart?: 'at-once' | 'explicit';
}
