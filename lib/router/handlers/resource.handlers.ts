import type { Context } from '../../context/context';
import { resourceNotFound } from '../../core/error-mapper';
import { Method } from '../../core/methods';
import type { JsonObject, WireResource } from '../../core/wire.types';
import type { ResourceDefinition } from '../../definitions/definitions';
import { normaliseResourceResult } from '../../results/resource-content';
import { classPipe } from '../pipeline/argument-pipe';
import { TARGET_ERROR_POLICY } from '../pipeline/error-policy';
import type { TargetSteps } from '../pipeline/operation-pipeline';
import { refuseControlCharacters } from '../template-values';
import { requireUri, type HandlerDeps, type MethodEntry } from './method-handler';
import { pagedList } from './paged-list';

export function resourceHandlers(deps: HandlerDeps): MethodEntry[] {
  const { registry, visibility, pipelines } = deps;
  return [
    pagedList(deps, {
      method: Method.ResourcesList, list: 'resources', resultKey: 'resources', items: (ctx) => listResources(deps, ctx), known: (r, principal) => visibility.resource(r.uri, principal),
    }),
    pagedList(deps, {
      method: Method.ResourcesTemplatesList, list: 'templates', resultKey: 'resourceTemplates', items: () => registry.templateList(), known: (t, principal) => visibility.template(t.uriTemplate, principal),
    }),
    [Method.ResourcesRead, async (params, ctx) => {
      const uri = requireUri(params, 'uri', deps.maxUriLength);
      const resolved = visibility.resource(uri, ctx.principal);
      if (!resolved) throw TARGET_ERROR_POLICY.resource.unknown(uri);
      if (!deps.allowTemplateControlChars) refuseControlCharacters(uri, resolved.params);
      return pipelines.target(resolved.definition, resourceSteps).run(uri, resolved.params, ctx);
    }],
  ];
}

/** A resource's steps: a template's parameter DTO as the pipe (variables arrive as strings); nothing returned means not found. */
function resourceSteps(definition: ResourceDefinition): TargetSteps {
  const { mimeType } = definition;
  return {
    kind: 'resource',
    method: Method.ResourcesRead,
    label: definition.label,
    owner: definition.owner,
    member: definition.member,
    pipe: definition.kind === 'template' && definition.paramsClass ? classPipe(definition.paramsClass, true) : undefined,
    invoke: definition.invoke,
    map: (value, uri) => {
      // Nothing returned: the handler does not serve this URI (a template matches more than exists).
      if (value === undefined || value === null) throw resourceNotFound(uri);
      return normaliseResourceResult(value, { uri, mimeType }) as unknown as JsonObject;
    },
    policy: TARGET_ERROR_POLICY.resource,
  };
}

/** Fixed resources, then what each template's lister names; a failing lister is logged and skipped. */
async function listResources({ registry, diagnostics }: HandlerDeps, ctx: Context): Promise<readonly WireResource[]> {
  const listers = [...registry.templateDefinitions()].filter((d) => d.lister);
  if (listers.length === 0) return registry.resourceList();
  const listed = await Promise.all(listers.map(async (definition) => {
    try {
      return await definition.lister!(ctx);
    } catch (error) {
      diagnostics.error(`${definition.label}: resource lister failed`, error);
      return [];
    }
  }));
  return [...registry.resourceList(), ...listed.flat()];
}
