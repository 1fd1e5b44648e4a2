import { missingScopes } from '../../core/auth-info';
import { InsufficientScopeError, ProtocolError } from '../../core/errors';
import { Method } from '../../core/methods';
import type { JsonObject } from '../../core/wire.types';
import type { PromptDefinition, TemplateResourceDefinition } from '../../definitions/definitions';
import type { VisibilityResolver } from '../visibility';
import { TARGET_ERROR_POLICY } from '../pipeline/error-policy';
import { optionalObject, requireString, requireUri, throughPipeline, type HandlerDeps, type MethodEntry } from './method-handler';

/** The spec caps a completion answer at 100 values. */
export const MAX_COMPLETION_VALUES = 100;

export function completionHandlers({ visibility, maxUriLength, pipelines }: HandlerDeps): MethodEntry[] {
  return [
    [Method.CompletionComplete, throughPipeline(pipelines, 'completion', Method.CompletionComplete, async (params, ctx) => {
      const ref = optionalObject(params, 'ref');
      const argument = optionalObject(params, 'argument');
      const name = requireString(argument, 'name');
      const value = typeof argument.value === 'string' ? argument.value : '';
      const context = optionalObject(params, 'context');
      const args = stringsOf(optionalObject(context, 'arguments'));
      const target = targetOf(visibility, ref, maxUriLength, ctx.principal);
      // Completion values come from the target's own code: they need the target's scopes.
      const missing = missingScopes(ctx.principal, target.scopes);
      if (missing.length > 0) throw new InsufficientScopeError(target.scopes, missing, `completion/complete of ${describeRef(ref)}`);
      const completer = target.completers.get(name);
      if (!completer) return { completion: { values: [] } };
      const outcome = await completer(value, args, ctx);
      const values = outcome.values.slice(0, MAX_COMPLETION_VALUES);
      const total = outcome.total ?? outcome.values.length;
      return { completion: { values, total, hasMore: outcome.hasMore ?? total > values.length } };
    })],
  ];
}

/** The prompt or template `ref` names, when it exists and the caller may know it; unknown otherwise. */
function targetOf(visibility: VisibilityResolver, ref: JsonObject, maxUriLength: number, principal: unknown): PromptDefinition | TemplateResourceDefinition {
  if (ref.type === 'ref/prompt') {
    const name = requireString(ref, 'name');
    const prompt = visibility.prompt(name, principal);
    if (!prompt) throw TARGET_ERROR_POLICY.prompt.unknown(name);
    return prompt;
  }
  if (ref.type === 'ref/resource') {
    const uri = requireUri(ref, 'uri', maxUriLength);
    const template = visibility.template(uri, principal);
    if (!template) throw ProtocolError.invalidParams(`Unknown resource template: ${uri}`);
    return template;
  }
  throw ProtocolError.invalidParams('"ref.type" must be "ref/prompt" or "ref/resource"');
}

function stringsOf(values: JsonObject): Record<string, string> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => typeof v === 'string')) as Record<string, string>;
}

function describeRef(ref: JsonObject): string {
  return ref.type === 'ref/prompt' ? `prompt ${String(ref.name)}` : `template ${String(ref.uri)}`;
}
