import type { Diagnostics } from '../../../core/diagnostics';
import { toErrorObject } from '../../../core/error-mapper';
import { CallEndedSignal, HiddenError, InputRequiredSignal, ProtocolError } from '../../../core/errors';
import { TARGET_ERROR_POLICY, type TargetKind } from '../error-policy';
import type { ExecutionContext } from '../execution-context';

/**
 * How an operation ended, as its caller saw it:
 * - `result`: a result (for a tool, one without `isError`);
 * - `tool_error`: a tool's `isError` result (returned, or made from what the tool threw);
 * - `protocol_error`: a JSON-RPC error, with its code and message;
 * - `input_required`: a stateless-era round that ended by asking the client for input.
 * `unexpected` is a thrown value the server reports as a bug (the detail kept from the client).
 */
export type OperationOutcome =
  | { readonly kind: 'result' }
  | { readonly kind: 'tool_error'; readonly unexpected?: unknown }
  | { readonly kind: 'protocol_error'; readonly code: number; readonly message: string; readonly unexpected?: unknown }
  | { readonly kind: 'input_required' };

const RESULT: OperationOutcome = Object.freeze({ kind: 'result' });
const TOOL_ERROR: OperationOutcome = Object.freeze({ kind: 'tool_error' });
const INPUT_REQUIRED: OperationOutcome = Object.freeze({ kind: 'input_required' });

/** The outcome of a call whose handler (or inner interceptors) returned `value`. */
export function outcomeOfValue(call: ExecutionContext, value: unknown): OperationOutcome {
  const isError = call.kind === 'tool' && typeof value === 'object' && value !== null && (value as { isError?: unknown }).isError === true;
  return isError ? TOOL_ERROR : RESULT;
}

/**
 * The outcome of a call whose handler (or inner interceptors) threw `error`: asked of the same
 * error policy and wire mapper the pipeline answers with, so telemetry cannot tell a different
 * story than the response. Their diagnostics go to a probe that only notes an unexpected error
 * (the pipeline itself reports it once, where the server's diagnostics are).
 */
export function outcomeOfFailure(call: ExecutionContext, error: unknown): OperationOutcome {
  if (error instanceof InputRequiredSignal) return INPUT_REQUIRED;
  // Ended by an extension with its own result: what the caller gets is that result.
  if (error instanceof CallEndedSignal) return error.result.isError === true ? TOOL_ERROR : RESULT;
  const probe = new UnexpectedErrorProbe();
  const policy = call.target !== undefined && Object.hasOwn(TARGET_ERROR_POLICY, call.kind) ? TARGET_ERROR_POLICY[call.kind as TargetKind] : undefined;
  const label = `${call.method} ${call.target ?? ''}`;
  let raised = error;
  if (error instanceof HiddenError) {
    // Hidden means unknown, as the pipeline answers it.
    raised = policy ? policy.unknown(call.target!) : ProtocolError.methodNotFound(call.method);
  } else if (policy) {
    try {
      policy.failed(error, call.target!, label, probe);
      return probe.unexpected === undefined ? TOOL_ERROR : { kind: 'tool_error', unexpected: probe.unexpected };
    } catch (thrown) {
      raised = thrown;
    }
  }
  const { code, message } = toErrorObject(raised, label, probe);
  return probe.unexpected === undefined ? { kind: 'protocol_error', code, message } : { kind: 'protocol_error', code, message, unexpected: probe.unexpected };
}

/** Diagnostics that write nothing and keep the error reported as unexpected, if any. */
class UnexpectedErrorProbe implements Diagnostics {
  unexpected: unknown;

  error(_message: string, error?: unknown): void {
    this.unexpected = error;
  }

  warn(): void {}
}
