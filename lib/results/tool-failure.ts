import { CallEndedSignal, ClientError, InputRequiredSignal, isClientCaused, ProtocolError, ToolError } from '../core/errors';
import type { Diagnostics } from '../core/diagnostics';
import type { CallToolResult } from '../core/wire.types';
import { ToolResult } from './tool-result';

/**
 * A tool's failure as the model should see it (or the result a `CallEndedSignal` carries). `ProtocolError`s are not results: rethrown. A
 * tool that fails because of its client while it waited for it (`ctx.elicit` rejecting because
 * the call was cancelled, the session or task ended, or the client never answered; `ctx.sleep`
 * rejecting because the call was cancelled) is no fault of
 * the server, and a client can cause it at will: it goes to `debug` only (and a cancelled request
 * gets no response).
 */
export function toolFailure(error: unknown, label: string, diagnostics: Diagnostics): CallToolResult {
  // An extension ended the call with its own result (an elicitation asked elsewhere): the call's result, as given.
  if (error instanceof CallEndedSignal) return error.result;
  if (error instanceof ProtocolError || error instanceof InputRequiredSignal) throw error;
  if (error instanceof ToolError || error instanceof ClientError) return ToolResult.error(error.message);
  if (isClientCaused(error)) {
    diagnostics.debug?.(`${label}: ${error.message}`);
    return ToolResult.error(error.message);
  }
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
