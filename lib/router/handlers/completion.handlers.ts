import { missingScopes } from '../../core/auth-info';
import { InsufficientScopeError, ProtocolError } from '../../core/errors';
import { Method } from '../../core/methods';
import type { JsonObject } from '../../core/wire.types';
import type { Completer } from '../../definitions/definitions';
import type { Registry } from '../registry';
import { itemScopes, type VisibleItem } from '../visibility';
import { TARGET_ERROR_POLICY } from '../pipeline/error-policy';
import { optionalObject, requireString, requireUri, throughPipeline, type HandlerDeps, type MethodEntry } from './method-handler';

/** The spec caps a completion answer at 100 values. */
export const MAX_COMPLETION_VALUES = 100;

export function completionHandlers({ registry, visible, maxUriLength, pipelines }: HandlerDeps): MethodEntry[] {
  return [
    [Method.CompletionComplete, throughPipeline(pipelines, 'completion', Method.CompletionComplete, async (params, ctx) => {
      const ref = optionalObject(params, 'ref');
      const argument = optionalObject(params, 'argument');
      const name = requireString(argument, 'name');
      const value = typeof argument.value === 'string' ? argument.value : '';
      const context = optionalObject(params, 'context');
      const args = stringsOf(optionalObject(context, 'arguments'));
      const completer = completerFor(registry, ref, maxUriLength, (item) => {
        if (!visible(item, ctx.principal)) return false;
        // Completion values come from the target's own code: they need the target's scopes.
        const missing = missingScopes(ctx.principal, item.scopes ?? []);
        if (missing.length > 0) throw new InsufficientScopeError(item.scopes!, missing, `completion/complete of ${describeRef(item)}`);
        return true;
      }).get(name);
      if (!completer) return { completion: { values: [] } };
      const outcome = await completer(value, args, ctx);
      const values = outcome.values.slice(0, MAX_COMPLETION_VALUES);
      const total = outcome.total ?? outcome.values.length;
      return { completion: { values, total, hasMore: outcome.hasMore ?? total > values.length } };
    })],
  ];
}

function completerFor(registry: Registry, ref: JsonObject, maxUriLength: number, canSee: (item: VisibleItem) => boolean): ReadonlyMap<string, Completer> {
  if (ref.type === 'ref/prompt') {
    const name = requireString(ref, 'name');
    const prompt = registry.prompt(name);
    if (!prompt || !canSee({ kind: 'prompt', name, ...itemScopes(prompt) })) throw TARGET_ERROR_POLICY.prompt.unknown(name);
    return prompt.completers;
  }
  if (ref.type === 'ref/resource') {
    const uri = requireUri(ref, 'uri', maxUriLength);
    const template = registry.template(uri);
    if (!template || !canSee({ kind: 'template', uriTemplate: uri, ...itemScopes(template) })) throw ProtocolError.invalidParams(`Unknown resource template: ${uri}`);
    return template.completers;
  }
  throw ProtocolError.invalidParams('"ref.type" must be "ref/prompt" or "ref/resource"');
}

function stringsOf(values: JsonObject): Record<string, string> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => typeof v === 'string')) as Record<string, string>;
}

function describeRef(item: VisibleItem): string {
  return item.kind === 'prompt' ? `prompt ${item.name}` : item.kind === 'template' ? `template ${item.uriTemplate}` : item.kind;
}
