import { ClientError, InputRequiredSignal, PhantomError, ProtocolError, ToolError } from '../core/errors';
import type { Diagnostics } from '../core/diagnostics';
import type { CallToolResult } from '../core/wire.types';
import { ToolResult } from './tool-result';

/** Rejections that only say the call was cancelled while it waited: `ctx.elicit` and the like, `ctx.sleep`. */
const CANCELLED_CODES: ReadonlySet<string> = new Set(['request_aborted', 'cancelled']);

/**
 * A tool's failure as the model should see it. `ProtocolError`s are not results: rethrown. A
 * tool that fails because its call was cancelled while it waited (`ctx.elicit` rejecting with
 * `request_aborted`, `ctx.sleep` with `cancelled`) is no fault of the server: nothing is
 * reported (nor answered: a cancelled request gets no response).
 */
export function toolFailure(error: unknown, label: string, diagnostics: Diagnostics): CallToolResult {
  if (error instanceof ProtocolError || error instanceof InputRequiredSignal) throw error;
  if (error instanceof ToolError || error instanceof ClientError) return ToolResult.error(error.message);
  if (error instanceof PhantomError && CANCELLED_CODES.has(error.code)) return ToolResult.error(error.message);
  diagnostics.error(`${label} threw`, error);
  return ToolResult.error('The tool failed with an internal error.');
}

/**
 * A tool result that breaks the tool's own output schema. It is the tool's fault, not the
 * model's: the result names the properties, and the full detail goes to diagnostics.
 */
export function invalidOutput(tool: { name: string; label: string }, paths: readonly string[], issues: readonly string[], diagnostics: Diagnostics): CallToolResult {
  diagnostics.error(`${tool.label} returned a result that does not match its output schema:\n${issues.map((issue) => `  - ${issue}`).join('\n')}`);
  return ToolResult.error(`Tool "${tool.name}" returned a result that does not match its output schema (${paths.join(', ')}).`);
}
