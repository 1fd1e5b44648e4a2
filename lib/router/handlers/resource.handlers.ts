import type { Context } from '../../context/context';
import { invalidArguments, resourceNotFound, resourceReadFailure } from '../../protocol/error-mapper';
import { ProtocolError } from '../../protocol/errors';
import { Method } from '../../protocol/methods';
import type { JsonObject, WireResource } from '../../protocol/wire.types';
import { normaliseResourceResult } from '../../results/resource-content';
import { validateArguments } from '../../schema';
import type { HandlerDeps, MethodEntry } from './method-handler';
import { requireString } from './method-handler';
import { pagedList } from './paged-list';
import type { Visibility } from '../visibility';
import type { ResourceDefinition } from '../../scanner/definitions';

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
      const uri = requireString(params, 'uri');
      const resolved = registry.resolveResource(uri);
      if (!resolved || !isVisible(visible, resolved.definition, uri, ctx)) throw resourceNotFound(uri);
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

/** A resource read through a template must be visible both as the URI and as its template. */
function isVisible(visible: Visibility, definition: ResourceDefinition, uri: string, ctx: Context): boolean {
  if (!visible({ kind: 'resource', uri }, ctx.principal)) return false;
  return definition.kind === 'resource' || visible({ kind: 'template', uriTemplate: definition.uriTemplate.source }, ctx.principal);
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
