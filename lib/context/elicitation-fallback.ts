import type { JsonObject } from '../core/wire.types';

/** One form elicitation as a fallback is asked it: what the client would have been sent, and its key in the call. */
export interface FallbackElicitation {
  /** The form's message (the call's own, when `ctx.elicit` was given one). */
  readonly message: string;
  /** The form's flat `requestedSchema`, as `elicitation/create` would carry it. */
  readonly requestedSchema: JsonObject;
  /**
   * The elicitation's key within the call: `ElicitCallOptions.key` when the handler named it, else
   * `elicit-<n>` for the n-th form the call asked through the fallback. Stable across re-runs of a
   * handler that asks in the same order (as the stateless era's input keys are).
   */
  readonly key: string;
}

/**
 * Answers the form elicitations of one call whose client cannot (it did not declare form
 * elicitation): `ctx.elicit` asks it before answering `unsupported`. Made per `tools/call` by an
 * extension (`Extension.elicitationFallback`), and handed to the call's context by the request
 * path, never through a global.
 */
export interface ElicitationFallback {
  /**
   * Answers `request` with what a client would have answered (`{ action, content? }`): the reply
   * is then checked exactly as a client's, and an accepted `content` validated with the form's
   * own validator before the handler sees it. Or ends the call: throw a `CallEndedSignal` with the
   * result to answer the call with (the form shown elsewhere).
   */
  elicit(request: FallbackElicitation): Promise<JsonObject>;
  /**
   * Called when the `content` it answered `request` with fails the form's validation (`issues`
   * name the fields): throw a `CallEndedSignal` to end the call (show the form again, with the
   * issues). When it returns (or is absent), `ctx.elicit` rejects with a `ToolError` listing the
   * issues, as for a client's invalid answer.
   */
  invalid?(request: FallbackElicitation, issues: readonly string[]): void | Promise<void>;
}
