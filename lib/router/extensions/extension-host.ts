import type { Context } from '../../context/context';
import type { Diagnostics } from '../../core/diagnostics';
import type { SigningKey } from '../../core/signing-key';
import { definedOnly } from '../../core/defined-only';
import { DefinitionError } from '../../core/errors';
import type { JsonObject, WireResource, WireResourceTemplate } from '../../core/wire.types';
import type { FixedResourceDefinition, ResourceDefinition, TemplateResourceDefinition, ToolDefinition } from '../../definitions/definitions';
import { TOOL_NAME } from '../../definitions/tool.scanner';
import { compileSchemaCheck } from '../../schema';
import type { Constructor } from '../../metadata/metadata-store';
import { parseUriTemplate } from '../../uri-template/uri-template';
import type { Paginator } from '../pagination';
import type { Registry } from '../registry';
import type { VisibilityResolver } from '../visibility';
import type { CallOutcome, Extension, ExtensionHost, ExtensionResource, ExtensionServedTool, TemplateVariables } from './extension';
import { extensionTokens } from './extension-tokens';

/** What a host is made from: the server's parts an extension may use. */
export interface ExtensionHostParts {
  readonly registry: Registry;
  readonly visibility: VisibilityResolver;
  readonly paginator: Paginator;
  readonly diagnostics: Diagnostics;
  readonly resolve: (cls: Constructor) => object;
  /** This node's `subscriptions/listen` streams (the protocol layer's, made on first use). */
  readonly listeners: () => ListenStreams;
  /** What extensions' token keys derive from (the server's signing keys, shared by replicas). */
  readonly tokenKey: SigningKey;
  /** Serves one `tools/call` as the router does (`params` as the request's), for `ctx`'s caller. */
  readonly callTool: (params: JsonObject, ctx: Context) => Promise<CallOutcome>;
}

/** What a host asks of this node's `subscriptions/listen` streams: who names an id under a key, and telling them. */
export interface ListenStreams {
  watches(key: string, id: string): boolean;
  notify(key: string, id: string, method: string, params: JsonObject, mayKnow: (principal: unknown) => boolean): void;
}

const NO_MEMBERS = Object.freeze({ guards: Object.freeze([]), interceptors: Object.freeze([]) });
const NO_COMPLETERS = new Map();
const NO_SCOPES: readonly string[] = Object.freeze([]);

/** The host one extension's `setup` is given: the server's registry, visibility rule, paginator and container, named for it. */
export function extensionHost(extension: Extension, parts: ExtensionHostParts): ExtensionHost {
  const { registry, visibility, paginator, diagnostics, resolve, listeners, tokenKey, callTool } = parts;
  const listenKey = extension.listenFilter?.key;
  /** The class a guard sees as `getClass()` for the extension's resources. */
  const owner = (extension.constructor === Object ? ExtensionResourceOwner : extension.constructor) as Constructor;
  return {
    diagnostics,
    serveResources(resources) {
      registry.add({ tools: [], prompts: [], resources: definitionsOf(extension.id, owner, resources) });
    },
    stopServingResource: (uriOrTemplate) => registry.removeResource(uriOrTemplate),
    resourcesChanged: () => registry.resourcesChanged(),
    isVisible: (item, principal) => visibility.allows(item, principal),
    isListenedFor: (id) => listenKey !== undefined && listeners().watches(listenKey, id),
    notifyListeners: (id, method, params, mayKnow) => {
      if (listenKey !== undefined) listeners().notify(listenKey, id, method, params, mayKnow);
    },
    page: (list, items, cursor) => paginator.page(`${extension.id}:${list}`, items, cursor),
    resolve: <T>(cls: new (...args: never[]) => T) => resolve(cls as unknown as Constructor) as T,
    tools: () => registry.toolList().flatMap((listed) => {
      const definition = registry.tool(listed.name);
      return definition ? [{ name: definition.name, owner: definition.owner, member: definition.member, descriptor: listed }] : [];
    }),
    serveTools(tools) {
      registry.add({ tools: toolDefinitionsOf(extension.id, owner, tools), prompts: [], resources: [] });
    },
    // A fresh context for the re-run: the same request and caller, nothing a guard stored for the outer call.
    callTool: (name, args, ctx, options = {}) => callTool({ name, arguments: args }, ctx.derive({ elicitationFallback: options.elicitation })),
    tokens: (purpose) => extensionTokens(tokenKey, extension.id, purpose),
  };
}

/** Definitions for the tools an extension serves itself; every problem at once. */
function toolDefinitionsOf(id: string, owner: Constructor, tools: readonly ExtensionServedTool[]): ToolDefinition[] {
  const problems: string[] = [];
  const definitions: ToolDefinition[] = [];
  for (const tool of tools) {
    const label = `extension ${id}: tool ${String(tool?.name)}`;
    const before = problems.length;
    if (typeof tool.name !== 'string' || !TOOL_NAME.test(tool.name)) problems.push(`${label}: its name must match ${TOOL_NAME.source}`);
    if (typeof tool.description !== 'string' || tool.description.trim().length === 0) problems.push(`${label}: "description" must be a non-empty string`);
    if (typeof tool.handle !== 'function') problems.push(`${label}: "handle" must be a function`);
    if (typeof tool.inputSchema !== 'object' || tool.inputSchema === null || tool.inputSchema.type !== 'object') problems.push(`${label}: "inputSchema" must be a JSON Schema of type "object"`);
    let inputCheck: ToolDefinition['inputCheck'];
    if (problems.length === before) {
      try {
        inputCheck = compileSchemaCheck(tool.inputSchema, 'arguments');
      } catch (error) {
        problems.push(`${label}: "inputSchema": ${(error as Error).message}`);
      }
    }
    if (problems.length > before) continue;
    const descriptor = Object.freeze(definedOnly({
      name: tool.name, title: tool.title, description: tool.description, inputSchema: tool.inputSchema, annotations: tool.annotations, _meta: tool._meta,
    })) as ToolDefinition['descriptor'];
    const handle = tool.handle.bind(tool);
    definitions.push(Object.freeze({
      kind: 'tool', name: tool.name, label, descriptor, inputCheck, requires: NO_SCOPES, taskSupport: 'forbidden', taskStart: 'at-once',
      owner, member: tool.name, pipeline: NO_MEMBERS, scopes: NO_SCOPES,
      invoke: (args: unknown, ctx: Context) => handle(args as JsonObject, ctx),
    } satisfies ToolDefinition));
  }
  if (problems.length > 0) throw new DefinitionError(problems);
  return definitions;
}

/** What `getClass()` names for a resource of an extension written as a plain object. */
class ExtensionResourceOwner {
  read(): void {}
}

/** Definitions for the resources an extension serves; every problem at once. */
function definitionsOf(id: string, owner: Constructor, resources: readonly ExtensionResource[]): ResourceDefinition[] {
  const problems: string[] = [];
  const definitions: ResourceDefinition[] = [];
  for (const resource of resources) {
    const where = 'uriTemplate' in resource ? resource.uriTemplate : resource.uri;
    const label = `extension ${id}: resource ${String(where)}`;
    if (typeof resource.read !== 'function') problems.push(`${label}: "read" must be a function`);
    if (typeof resource.name !== 'string' || resource.name.length === 0) problems.push(`${label}: "name" must be a non-empty string`);
    const served = { label, owner, member: 'read', pipeline: NO_MEMBERS, scopes: NO_SCOPES, cache: resource.cache, mimeType: resource.mimeType };
    const invoke = (variables: unknown, ctx: Parameters<ExtensionResource['read']>[2], target?: string) => resource.read(target ?? '', (variables ?? {}) as TemplateVariables, ctx);
    const wire = { name: resource.name, title: resource.title, description: resource.description, mimeType: resource.mimeType, _meta: resource._meta };
    if ('uriTemplate' in resource) {
      try {
        const uriTemplate = parseUriTemplate(resource.uriTemplate);
        const { list, knows } = resource;
        const definition: TemplateResourceDefinition = {
          kind: 'template', ...served, uriTemplate, invoke, completers: NO_COMPLETERS,
          descriptor: definedOnly<WireResourceTemplate>({ uriTemplate: resource.uriTemplate, ...wire }),
          lister: list && ((ctx) => list.call(resource, ctx)),
          knows: knows && ((uri, params, principal) => knows.call(resource, uri, params, principal)),
        };
        definitions.push(definition);
      } catch (error) {
        problems.push(`${label}: ${(error as Error).message}`);
      }
    } else {
      const definition: FixedResourceDefinition = { kind: 'resource', ...served, uri: resource.uri, invoke, descriptor: definedOnly<WireResource>({ uri: resource.uri, ...wire }) };
      definitions.push(definition);
    }
  }
  if (problems.length > 0) throw new DefinitionError(problems);
  return definitions;
}
