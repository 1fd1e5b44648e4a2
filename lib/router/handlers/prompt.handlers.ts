import { Method } from '../../core/methods';
import type { JsonObject } from '../../core/wire.types';
import type { PromptDefinition } from '../../definitions/definitions';
import { normalisePromptResult } from '../../results/prompt-result';
import { classPipe } from '../pipeline/argument-pipe';
import { TARGET_ERROR_POLICY } from '../pipeline/error-policy';
import type { TargetSteps } from '../pipeline/operation-pipeline';
import { optionalObject, requireString, type HandlerDeps, type MethodEntry } from './method-handler';
import { pagedList } from './paged-list';

export function promptHandlers(deps: HandlerDeps): MethodEntry[] {
  const { registry, visibility, pipelines } = deps;
  return [
    pagedList(deps, { method: Method.PromptsList, list: 'prompts', resultKey: 'prompts', items: () => registry.promptList(), known: (p, principal) => visibility.prompt(p.name, principal) }),
    [Method.PromptsGet, async (params, ctx) => {
      const name = requireString(params, 'name');
      const prompt = visibility.prompt(name, ctx.principal);
      if (!prompt) throw TARGET_ERROR_POLICY.prompt.unknown(name);
      return pipelines.target(prompt, promptSteps).run(name, optionalObject(params, 'arguments'), ctx);
    }],
  ];
}

/** A prompt's steps: its DTO as the pipe, converting the string arguments to the declared types. */
function promptSteps(prompt: PromptDefinition): TargetSteps {
  return {
    kind: 'prompt',
    method: Method.PromptsGet,
    label: prompt.label,
    owner: prompt.owner,
    member: prompt.member,
    // Prompt arguments are strings on the wire: convert them to the DTO's declared types.
    pipe: prompt.inputClass ? classPipe(prompt.inputClass, true) : undefined,
    invoke: prompt.invoke,
    map: (value) => normalisePromptResult(value, prompt.descriptor.description) as unknown as JsonObject,
    policy: TARGET_ERROR_POLICY.prompt,
  };
}
