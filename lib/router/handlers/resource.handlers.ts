import type { Context } from '../../context/context';
import { invalidArguments, resourceNotFound, resourceReadFailure } from '../../core/error-mapper';
import { ProtocolError } from '../../core/errors';
import { Method } from '../../core/methods';
import type { JsonObject, WireResource } from '../../core/wire.types';
import { normaliseResourceResult } from '../../results/resource-content';
import { validateArguments } from '../../schema';
import type { HandlerDeps, MethodEntry } from './method-handler';
import { requireUri } from './method-handler';
import { pagedList } from './paged-list';
import { visibleResource } from '../visibility';

export function resourceHandlers(deps: HandlerDeps): MethodEntry[] {
  const { registry, visible } = deps;
  return [
    [Method.ResourcesList, pagedList(deps, {
      list: 'resources', resultKey: 'resources', items: (ctx) => listResources(deps, ctx), itemOf: (r) => ({ kind: 'resource', uri: r.uri }),
    })],
    [Method.ResourcesTemplatesList, pagedList(deps, {
      list: 'templates', resultKey: 'resourceTemplates', items: () => registry.templateList(), itemOf: (t) => ({ kind: 'template', uriTemplate: t.uriTemplate }),
    })],
    [Method.ResourcesRead, async (params, ctx) => {
      const uri = requireUri(params, 'uri', deps.maxUriLength);
      const resolved = visibleResource(registry, visible, uri, ctx.principal);
      if (!resolved) throw resourceNotFound(uri);
      const { definition } = resolved;
      let input: unknown = resolved.params;
      if (definition.kind === 'template' && definition.paramsClass) {
        const checked = await validateArguments(definition.paramsClass, resolved.params, { coerce: true });
        if (!checked.ok) throw ProtocolError.invalidParams(invalidArguments(`resource "${uri}"`, checked.issues));
        input = checked.value;
      }
      const value = await definition.invoke(input, ctx).catch((error: unknown) => { throw resourceReadFailure(error, uri); });
      // Nothing returned: the handler does not serve this URI (a template matches more than exists).
      if (value === undefined || value === null) throw resourceNotFound(uri);
      return normaliseResourceResult(value, { uri, mimeType: definition.mimeType }) as unknown as JsonObject;
    }],
  ];
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
