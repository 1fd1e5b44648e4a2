import type { Diagnostics } from '../../core/diagnostics';
import { invalidArguments, resourceNotFound, resourceReadFailure } from '../../core/error-mapper';
import { ProtocolError } from '../../core/errors';
import type { JsonObject } from '../../core/wire.types';
import { toolFailure } from '../../results/tool-failure';
import { ToolResult } from '../../results/tool-result';

/**
 * What each failure of an operation becomes, decided here once for every kind of target. Three
 * rows apply to all of them and need no table: a guard's refusal is -32003 (`ForbiddenError`, any
 * `ProtocolError` a member throws goes out as it is); a `HiddenError` from a guard or an
 * interceptor is answered as the target's `unknown` below; anything else thrown outside the
 * invocation goes to the wire error mapper (`core/error-mapper.ts`). Methods without a target
 * (lists, completion, ping...) answer a `HiddenError` as an unknown method (-32601).
 *
 * | target   | unknown (or hidden)       | invalid arguments  | the invocation threw                            |
 * | -------- | ------------------------- | ------------------ | ----------------------------------------------- |
 * | tool     | -32602 `Unknown tool`     | an `isError` result | an `isError` result (MCP: tool errors are results the model reads); a `ProtocolError` goes out as it is |
 * | prompt   | -32602 `Unknown prompt`   | -32602             | the wire mapper (`ToolError`: -32602; others: -32603) |
 * | resource | -32002 with `data.uri`    | -32602             | `ResourceNotFoundError`: -32002; else the wire mapper |
 *
 * The stateless era then changes one code as its revision asks (resource not found is -32602
 * there); transports pick HTTP statuses from the codes.
 */
export interface TargetErrorPolicy {
  /** The error for a target that does not exist, or that the caller may not know. */
  readonly unknown: (target: string) => ProtocolError;
  /** What arguments the pipes refused become: a result to send, or a thrown error. */
  readonly invalidArguments: (target: string, issues: readonly string[]) => JsonObject;
  /** What a failure of the invocation (interceptors or handler) becomes: a result to send, or a thrown error. */
  readonly failed: (error: unknown, target: string, label: string, diagnostics: Diagnostics) => JsonObject;
}

export type TargetKind = 'tool' | 'prompt' | 'resource';

export const TARGET_ERROR_POLICY: Readonly<Record<TargetKind, TargetErrorPolicy>> = Object.freeze({
  tool: Object.freeze({
    unknown: (name: string) => ProtocolError.invalidParams(`Unknown tool: ${name}`),
    invalidArguments: (name: string, issues: readonly string[]) => ToolResult.error(invalidArguments(`tool "${name}"`, issues)) as unknown as JsonObject,
    failed: (error: unknown, _name: string, label: string, diagnostics: Diagnostics) => toolFailure(error, label, diagnostics) as unknown as JsonObject,
  }),
  prompt: Object.freeze({
    unknown: (name: string) => ProtocolError.invalidParams(`Unknown prompt: ${name}`),
    invalidArguments: (name: string, issues: readonly string[]): never => { throw ProtocolError.invalidParams(invalidArguments(`prompt "${name}"`, issues)); },
    failed: (error: unknown): never => { throw error; },
  }),
  resource: Object.freeze({
    unknown: (uri: string) => resourceNotFound(uri),
    invalidArguments: (uri: string, issues: readonly string[]): never => { throw ProtocolError.invalidParams(invalidArguments(`resource "${uri}"`, issues)); },
    failed: (error: unknown, uri: string): never => { throw resourceReadFailure(error, uri); },
  }),
});
