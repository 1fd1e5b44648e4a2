import type { ElicitationFallback, FallbackElicitation } from '../../context/elicitation-fallback';
import { CallEndedSignal, ToolError } from '../../core/errors';
import type { CallToolResult, JsonObject } from '../../core/wire.types';
import type { ExtensionTokens } from '../../router/extensions/extension';
import { ELICITATION_META_KEY } from './app-ids';

/**
 * A call waiting for a form, as its token carries it: the tool and its arguments (to run it
 * again), the answers given so far by elicitation key, and the key of the form asked now.
 */
export interface PendingForm {
  readonly tool: string;
  readonly arguments: JsonObject;
  readonly answers: JsonObject;
  readonly key: string;
}

/** What a call's forms are answered from: the call (tool, arguments, answers so far), its caller, the limits. */
export interface FormCall {
  readonly tool: string;
  readonly arguments: JsonObject;
  readonly answers: JsonObject;
  readonly principal: unknown;
}

/** The token's life and how many forms one call may ask. */
export interface FormLimits {
  readonly ttlMs: number;
  readonly maxForms: number;
}

/**
 * Answers one call's forms for a client that renders Views but cannot elicit: from the answers a
 * View submitted (checked by `ctx.elicit` as a client's would be), or, for a form not answered
 * yet, by ending the call with a result that says the user is asked in the app and carries the
 * form and a signed token of the call under {@link ELICITATION_META_KEY}. An invalid answer ends
 * the call the same way, with the issues, and a token without that answer: the user fixes and
 * submits again.
 */
export class FormFallback implements ElicitationFallback {
  constructor(private readonly call: FormCall, private readonly tokens: ExtensionTokens, private readonly limits: FormLimits) {}

  async elicit(request: FallbackElicitation): Promise<JsonObject> {
    const { answers } = this.call;
    if (Object.hasOwn(answers, request.key)) return answers[request.key] as JsonObject;
    if (Object.keys(answers).length >= this.limits.maxForms) {
      throw new ToolError(`This call asked more than ${this.limits.maxForms} forms through the app (the server's maxFormsPerCall)`);
    }
    throw new CallEndedSignal(this.waiting(request, answers));
  }

  invalid(request: FallbackElicitation, issues: readonly string[]): never {
    const rest = withoutKey(this.call.answers, request.key);
    throw new CallEndedSignal(this.waiting(request, rest, issues));
  }

  /** The result of a call that waits for `request` to be answered in the View. */
  private waiting(request: FallbackElicitation, answers: JsonObject, issues?: readonly string[]): CallToolResult {
    const pending: PendingForm = { tool: this.call.tool, arguments: this.call.arguments, answers, key: request.key };
    const token = this.tokens.seal(pending as unknown as JsonObject, this.call.principal, this.limits.ttlMs);
    const form: JsonObject = { message: request.message, requestedSchema: request.requestedSchema, token };
    if (issues !== undefined) form.issues = [...issues];
    const text = issues === undefined
      ? `Waiting for the user: they are asked "${request.message}" in the app. Their answer resumes this call there; do not call the tool again to answer for them.`
      : `The user's answer to "${request.message}" is invalid (${issues.join('; ')}); they are asked again in the app.`;
    return { content: [{ type: 'text', text }], _meta: { [ELICITATION_META_KEY]: form } };
  }
}

/** `answers` without `key`, as an object without a prototype (a key such as `__proto__` is an ordinary entry). */
export function withoutKey(answers: JsonObject, key: string): JsonObject {
  const rest = Object.create(null) as JsonObject;
  for (const [name, value] of Object.entries(answers)) if (name !== key) rest[name] = value;
  return rest;
}

/** `answers` with `answer` under `key`, without a prototype. */
export function withAnswer(answers: JsonObject, key: string, answer: JsonObject): JsonObject {
  const next = withoutKey(answers, key);
  next[key] = answer;
  return next;
}

/** A token's value as a pending form, or `undefined` when it is not one (a token of an older shape). */
export function pendingFormOf(value: JsonObject): PendingForm | undefined {
  const { tool, arguments: args, answers, key } = value;
  const isObject = (candidate: unknown): candidate is JsonObject => typeof candidate === 'object' && candidate !== null && !Array.isArray(candidate);
  if (typeof tool !== 'string' || typeof key !== 'string' || !isObject(args) || !isObject(answers)) return undefined;
  return { tool, arguments: args, answers: withoutKey(answers, '\u0000'), key };
}
