import { invalidArguments } from '../../core/error-mapper';
import { ProtocolError } from '../../core/errors';
import { Method } from '../../core/methods';
import type { JsonObject } from '../../core/wire.types';
import { normalisePromptResult } from '../../results/prompt-result';
import { validateArguments } from '../../schema';
import { optionalObject, requireString, type HandlerDeps, type MethodEntry } from './method-handler';
import { pagedList } from './paged-list';

export function promptHandlers(deps: HandlerDeps): MethodEntry[] {
  const { registry, visible } = deps;
  return [
    [Method.PromptsList, pagedList(deps, { list: 'prompts', resultKey: 'prompts', items: () => registry.promptList(), itemOf: (p) => ({ kind: 'prompt', name: p.name }) })],
    [Method.PromptsGet, async (params, ctx) => {
      const name = requireString(params, 'name');
      const prompt = registry.prompt(name);
      if (!prompt || !visible({ kind: 'prompt', name }, ctx.principal)) throw ProtocolError.invalidParams(`Unknown prompt: ${name}`);
      const args = optionalObject(params, 'arguments');
      let input: unknown = args;
      if (prompt.inputClass) {
        // Prompt arguments are strings on the wire: convert them to the DTO's declared types.
        const checked = await validateArguments(prompt.inputClass, args, { coerce: true });
        if (!checked.ok) throw ProtocolError.invalidParams(invalidArguments(`prompt "${name}"`, checked.issues));
        input = checked.value;
      }
      const value = await prompt.invoke(input, ctx);
      return normalisePromptResult(value, prompt.descriptor.description) as unknown as JsonObject;
    }],
  ];
}
