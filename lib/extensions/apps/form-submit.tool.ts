import type { Context } from '../../context/context';
import type { JsonObject } from '../../core/wire.types';
import type { ExtensionHost, ExtensionServedTool, ExtensionTokens, TokenOpening } from '../../router/extensions/extension';
import { ToolResult } from '../../results/tool-result';
import { FORM_SUBMIT_TOOL } from './app-ids';
import { FormFallback, pendingFormOf, withAnswer, type FormLimits } from './form-fallback';

/** Why a token does not open, as the View shows it (and the model, if the host tells it). */
const REFUSALS: Readonly<Record<Extract<TokenOpening, { ok: false }>['reason'] | 'shape', string>> = Object.freeze({
  invalid: 'This form cannot be submitted: its token is not one this server issued (or it was changed). Ask again.',
  expired: 'This form has expired. Call the tool again to be asked anew.',
  principal: 'This form was issued to someone else: it cannot be submitted by this caller.',
  shape: 'This form cannot be submitted: its token is not a pending form. Ask again.',
});

/**
 * The app-only tool the form View submits an answer to: `{ token, action, content }`. It opens the
 * token (for this caller only, before it expires), runs the waiting tool again through the same
 * path as `tools/call` with the earlier answers and this one, and returns what that run comes to:
 * the tool's result, the next form, or the same form with the issues when the answer is invalid.
 *
 * A token that does not open is refused with an `isError` result that says why, not a JSON-RPC
 * error: the View shows it to the user, and the specification (2025-11-25, SEP-1303) treats bad
 * tool input as a tool execution error.
 */
export function formSubmitTool(host: ExtensionHost, tokens: ExtensionTokens, limits: FormLimits): ExtensionServedTool {
  return {
    name: FORM_SUBMIT_TOOL,
    title: 'Submit a form',
    description: 'Answers a form a tool asked for in the app (called by the form View only).',
    inputSchema: {
      type: 'object',
      properties: {
        token: { type: 'string', minLength: 1, maxLength: 65_536, description: 'The token the waiting result carried' },
        action: { type: 'string', enum: ['accept', 'decline', 'cancel'] },
        content: { type: 'object', description: 'The answers, by field (with accept)' },
      },
      required: ['token', 'action'],
      additionalProperties: false,
    },
    _meta: { ui: { visibility: ['app'] } },
    async handle(args: JsonObject, ctx: Context): Promise<unknown> {
      const opened = tokens.open(args.token, ctx.principal);
      if (!opened.ok) return ToolResult.error(REFUSALS[opened.reason]);
      const pending = pendingFormOf(opened.value);
      if (pending === undefined) return ToolResult.error(REFUSALS.shape);
      const answer: JsonObject = args.action === 'accept' ? { action: 'accept', content: args.content ?? {} } : { action: args.action };
      const answers = withAnswer(pending.answers, pending.key, answer);
      const fallback = new FormFallback({ tool: pending.tool, arguments: pending.arguments, answers, principal: ctx.principal }, tokens, limits);
      const outcome = await host.callTool(pending.tool, pending.arguments, ctx, { elicitation: fallback });
      return 'result' in outcome ? outcome.result : ToolResult.error(outcome.error.message);
    },
  };
}
