import type { ResourceRecord } from '../metadata/resource-options';
import type { Context } from '../context/context';
import type { MemberRecord } from '../metadata/metadata-store';
import type { WireResource, WireResourceTemplate } from '../core/wire.types';
import { parseUriTemplate, type UriTemplate } from '../uri-template/uri-template';
import { argumentClassProblems, compileClassSchema } from '../schema';
import { compileCompleters } from './completion-source';
import type { ResourceDefinition, ResourceLister } from './definitions';
import { bindInvoker, readHandlerSignature, type HandlerSignature } from './handler-signature';
import { definedOnly } from '../core/defined-only';
import { scanPipelineMembers } from './pipeline-members.scanner';
import { scanScopes } from './scopes.scanner';
import { attempt, labelOf, report, type ScanScope } from './scan-scope';

export function scanResource(scope: ScanScope, record: MemberRecord<ResourceRecord>): ResourceDefinition | undefined {
  const { options, propertyKey } = record;
  const label = labelOf(scope, propertyKey);
  const problemsBefore = scope.problems.length;
  const template = attempt(scope.problems, label, () => parseUriTemplate(options.uri));
  const signature = readHandlerSignature(scope.proto, propertyKey);
  if (signature.problem) scope.problems.push(`${label}: ${signature.problem}`);
  if (!template) return undefined;
  const served = {
    label, owner: scope.cls, member: propertyKey, pipeline: scanPipelineMembers(scope, propertyKey, label), scopes: scanScopes(scope, propertyKey, label, options.scopes),
  };
  const definition = template.isTemplate
    ? scanTemplate(scope, record, served, template, signature)
    : scanFixed(scope, record, served, signature);
  return scope.problems.length > problemsBefore ? undefined : definition;
}

/** What every definition says about where it is served from. */
type Served = Pick<ResourceDefinition, 'label' | 'owner' | 'member' | 'pipeline' | 'scopes'>;

function scanFixed(scope: ScanScope, record: MemberRecord<ResourceRecord>, served: Served, signature: HandlerSignature): ResourceDefinition {
  const { options, propertyKey } = record;
  const { label } = served;
  if (options.list) scope.problems.push(`${label}: "list" applies to templates only; ${options.uri} is a fixed URI`);
  if (options.complete) scope.problems.push(`${label}: "complete" applies to templates only; ${options.uri} is a fixed URI`);
  const descriptor: WireResource = Object.freeze(definedOnly({
    uri: options.uri,
    name: options.name ?? propertyKey,
    title: options.title,
    description: options.description,
    mimeType: options.mimeType,
    size: options.size,
    icons: options.icons,
    _meta: options._meta,
  }));
  return Object.freeze({
    kind: 'resource', uri: options.uri, ...served, descriptor, mimeType: options.mimeType, cache: options.cache,
    invoke: bindInvoker(scope.resolve, propertyKey, signature),
  });
}

function scanTemplate(
  scope: ScanScope, record: MemberRecord<ResourceRecord>, served: Served, template: UriTemplate, signature: HandlerSignature,
): ResourceDefinition {
  const { options, propertyKey } = record;
  const { label } = served;
  if (signature.inputClass) checkVariables(scope, label, template, signature);
  const descriptor: WireResourceTemplate = Object.freeze(definedOnly({
    uriTemplate: options.uri,
    name: options.name ?? propertyKey,
    title: options.title,
    description: options.description,
    mimeType: options.mimeType,
    icons: options.icons,
    _meta: options._meta,
  }));
  const completionProblems: string[] = [];
  const completers = compileCompleters(options.complete, template.variables, scope.proto, scope.resolve, completionProblems);
  scope.problems.push(...completionProblems.map((p) => `${label}: ${p}`));
  return Object.freeze({
    kind: 'template', uriTemplate: template, ...served, descriptor, mimeType: options.mimeType, cache: options.cache,
    paramsClass: signature.inputClass,
    lister: options.list ? compileLister(scope, label, options.list, descriptor) : undefined,
    completers,
    invoke: bindInvoker(scope.resolve, propertyKey, signature),
  });
}

/** Every template variable must be a property of the handler's parameter class. */
function checkVariables(scope: ScanScope, label: string, template: UriTemplate, signature: HandlerSignature): void {
  report(scope.problems, label, argumentClassProblems(signature.inputClass!));
  const schema = attempt(scope.problems, label, () => compileClassSchema(signature.inputClass!));
  if (!schema) return;
  const properties = Object.keys((schema.properties ?? {}) as object);
  for (const variable of template.variables) {
    if (!properties.includes(variable)) {
      scope.problems.push(`${label}: template variable "${variable}" is not a property of ${signature.inputClass!.name}, so the handler cannot receive it`);
    }
  }
}

/** Concrete resources inherit the template's name, description and MIME type unless they say. */
function compileLister(scope: ScanScope, label: string, method: string, template: WireResourceTemplate): ResourceLister | undefined {
  if (typeof (scope.proto as Record<string, unknown>)[method] !== 'function') {
    scope.problems.push(`${label}: lister method "${method}" does not exist on the class`);
    return undefined;
  }
  const defaults = definedOnly({ name: template.name, description: template.description, mimeType: template.mimeType });
  return async (ctx: Context) => {
    const instance = scope.resolve() as Record<string, (ctx: Context) => unknown>;
    const listed = (await instance[method](ctx)) as Partial<WireResource>[];
    return (Array.isArray(listed) ? listed : []).map((item) => ({ ...defaults, ...item }) as WireResource);
  };
}
