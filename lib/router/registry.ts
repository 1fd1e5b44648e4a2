import { DefinitionError } from '../core/errors';
import type { ListKind } from '../core/methods';
import type { WirePrompt, WireResource, WireResourceTemplate, WireTool } from '../core/wire.types';
import type {
  Definitions, FixedResourceDefinition, PromptDefinition, ResourceDefinition, TemplateResourceDefinition, ToolDefinition,
} from '../definitions/definitions';
import { resourceKey } from '../definitions/scanner';
import type { CacheHint } from '../metadata/cache-hint';
import { DEFAULT_MAX_ARRAY_ITEMS, withMaxItems, type JsonSchema } from '../schema';
import { TemplateMatcher } from '../uri-template/template-matcher';
import type { TemplateParams } from '../uri-template/uri-template';

export type { ListKind } from '../core/methods';
/** Told which list changed (a provider added, a tool, prompt or resource removed), after the change. */
export type ListChangeListener = (kind: ListKind) => void;

/** The lists a caching hint is computed for. */
export type HintedList = 'tools' | 'prompts' | 'resources' | 'templates';

/** The cached lists a change to each kind invalidates. */
const LISTS_OF: Readonly<Record<ListKind, readonly HintedList[]>> = Object.freeze({
  tools: ['tools'], prompts: ['prompts'], resources: ['resources', 'templates'],
});

function combineHints(items: Iterable<{ cache?: CacheHint }>): CacheHint | undefined {
  let ttlMs: number | undefined;
  let scope: 'public' | 'private' | undefined;
  for (const { cache } of items) {
    if (!cache) continue;
    if (cache.ttlMs !== undefined) ttlMs = ttlMs === undefined ? cache.ttlMs : Math.min(ttlMs, cache.ttlMs);
    if (cache.scope !== undefined) scope = scope === 'private' ? 'private' : cache.scope;
  }
  return ttlMs === undefined && scope === undefined ? undefined : { ttlMs, scope };
}

/** A tool's descriptor without its task support (the same object when it has none). */
function withoutExecution(tool: WireTool): WireTool {
  if (tool.execution === undefined) return tool;
  const { execution: _execution, ...rest } = tool;
  return Object.freeze(rest);
}

export interface ResolvedResource {
  readonly definition: ResourceDefinition;
  readonly params: TemplateParams;
}

/**
 * The compiled lookup tables: tools and prompts by name, fixed resources by URI, templates in a
 * matcher. Wire lists are cached as arrays and rebuilt only after a change, so a page of a list
 * costs the page, not the registry.
 */
export class Registry {
  private readonly tools = new Map<string, ToolDefinition>();
  private readonly prompts = new Map<string, PromptDefinition>();
  private readonly fixed = new Map<string, FixedResourceDefinition>();
  private readonly templates = new Map<string, TemplateResourceDefinition>();
  private readonly matcher = new TemplateMatcher<TemplateResourceDefinition>();
  private readonly listeners = new Set<ListChangeListener>();
  private cache: Partial<{ tools: WireTool[]; toolsWithoutTasks: WireTool[]; prompts: WirePrompt[]; resources: WireResource[]; templates: WireResourceTemplate[] }> = {};
  private hints: Partial<Record<HintedList, CacheHint | null>> = {};
  private listers?: boolean;
  private taskTools?: number;

  /** `maxArrayItems`: listed as `maxItems` on every array of a tool's input schema that gives none. */
  constructor(private readonly maxArrayItems = DEFAULT_MAX_ARRAY_ITEMS) {}

  /** Adds definitions; a name or URI already served is a `DefinitionError` and nothing is added. */
  add(definitions: Definitions): void {
    const clashes = [
      ...definitions.tools.filter((d) => this.tools.has(d.name)).map((d) => `${d.label}: tool "${d.name}" is already registered`),
      ...definitions.prompts.filter((d) => this.prompts.has(d.name)).map((d) => `${d.label}: prompt "${d.name}" is already registered`),
      ...definitions.resources.filter((d) => this.hasResource(resourceKey(d))).map((d) => `${d.label}: resource "${resourceKey(d)}" is already registered`),
    ];
    if (clashes.length > 0) throw new DefinitionError(clashes);
    for (const tool of definitions.tools) this.tools.set(tool.name, tool);
    for (const prompt of definitions.prompts) this.prompts.set(prompt.name, prompt);
    for (const resource of definitions.resources) this.addResource(resource);
    if (definitions.tools.length > 0) this.changed('tools');
    if (definitions.prompts.length > 0) this.changed('prompts');
    if (definitions.resources.length > 0) this.changed('resources');
  }

  removeTool(name: string): boolean {
    return this.tools.delete(name) && this.changed('tools');
  }

  removePrompt(name: string): boolean {
    return this.prompts.delete(name) && this.changed('prompts');
  }

  /** Removes a fixed resource by URI or a template by its template text. */
  removeResource(uriOrTemplate: string): boolean {
    const removed = this.fixed.delete(uriOrTemplate) || (this.templates.delete(uriOrTemplate) && this.matcher.remove(uriOrTemplate));
    return removed && this.changed('resources');
  }

  tool(name: string): ToolDefinition | undefined {
    return this.tools.get(name);
  }

  prompt(name: string): PromptDefinition | undefined {
    return this.prompts.get(name);
  }

  template(source: string): TemplateResourceDefinition | undefined {
    return this.templates.get(source);
  }

  /** Fixed URIs win over templates; among templates the matcher picks the most specific. */
  resolveResource(uri: string): ResolvedResource | undefined {
    const fixed = this.fixed.get(uri);
    if (fixed) return { definition: fixed, params: {} };
    const match = this.matcher.match(uri);
    return match && { definition: match.value, params: match.params };
  }

  /**
   * The tools as listed; `tasks: false` for a revision that has no tasks (2025-03-26, 2025-06-18):
   * without `execution`, which only a revision with tasks defines.
   */
  toolList(tasks = true): readonly WireTool[] {
    if (tasks) return (this.cache.tools ??= [...this.tools.values()].map((d) => this.limited(d.descriptor)));
    return (this.cache.toolsWithoutTasks ??= this.toolList().map(withoutExecution));
  }

  /** The tool as listed: its input schema says how many items each array may hold. */
  private limited(tool: WireTool): WireTool {
    const inputSchema = withMaxItems(tool.inputSchema as JsonSchema, this.maxArrayItems);
    return inputSchema === tool.inputSchema ? tool : { ...tool, inputSchema: inputSchema as WireTool['inputSchema'] };
  }

  promptList(): readonly WirePrompt[] {
    return (this.cache.prompts ??= [...this.prompts.values()].map((d) => d.descriptor));
  }

  resourceList(): readonly WireResource[] {
    return (this.cache.resources ??= [...this.fixed.values()].map((d) => d.descriptor));
  }

  templateList(): readonly WireResourceTemplate[] {
    return (this.cache.templates ??= [...this.templates.values()].map((d) => d.descriptor));
  }

  /**
   * Every OAuth scope the served tools, prompts and resources declare, each once, in the order
   * first declared: what the protected-resource metadata advertises as `scopes_supported`.
   */
  declaredScopes(): string[] {
    const all = [...this.tools.values(), ...this.prompts.values(), ...this.fixed.values(), ...this.templates.values()].flatMap((d) => d.scopes);
    return [...new Set(all)];
  }

  /**
   * The scopes every served tool, prompt and resource declares alike (none when one declares none,
   * or nothing is served), in the order first declared.
   */
  commonScopes(): string[] {
    const all = [...this.tools.values(), ...this.prompts.values(), ...this.fixed.values(), ...this.templates.values()];
    if (all.length === 0) return [];
    return [...new Set(all[0].scopes)].filter((scope) => all.every((d) => d.scopes.includes(scope)));
  }

  /**
   * The caching hint the decorators give a list: the shortest TTL any member asks for, and
   * `private` if any member is private. `undefined` when no member says anything.
   */
  listCacheHint(list: HintedList): CacheHint | undefined {
    if (!(list in this.hints)) this.hints[list] = combineHints(this.definitionsOf(list)) ?? null;
    return this.hints[list] ?? undefined;
  }

  private definitionsOf(list: HintedList): Iterable<{ cache?: CacheHint }> {
    if (list === 'tools') return this.tools.values();
    if (list === 'prompts') return this.prompts.values();
    if (list === 'templates') return this.templates.values();
    return [...this.fixed.values(), ...this.templates.values()];
  }

  /** Whether any template lists its concrete resources (then `resources/list` depends on the caller). */
  get hasListers(): boolean {
    return (this.listers ??= [...this.templates.values()].some((template) => template.lister !== undefined));
  }

  templateDefinitions(): IterableIterator<TemplateResourceDefinition> {
    return this.templates.values();
  }

  /** What is registered, for capabilities: a server advertises only what it has. */
  get counts(): { tools: number; prompts: number; resources: number; taskTools: number } {
    this.taskTools ??= [...this.tools.values()].filter((tool) => tool.taskSupport !== 'forbidden').length;
    return { tools: this.tools.size, prompts: this.prompts.size, resources: this.fixed.size + this.templates.size, taskTools: this.taskTools };
  }

  onChange(listener: ListChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private hasResource(key: string): boolean {
    return this.fixed.has(key) || this.templates.has(key);
  }

  private addResource(definition: ResourceDefinition): void {
    if (definition.kind === 'resource') {
      this.fixed.set(definition.uri, definition);
    } else {
      this.templates.set(definition.uriTemplate.source, definition);
      this.matcher.add(definition.uriTemplate, definition);
    }
  }

  /**
   * Announces that the resource list changed without a definition changing: what a template's
   * lister names did (an extension's catalog reloaded).
   */
  resourcesChanged(): void {
    this.changed('resources');
  }

  private changed(kind: ListKind): true {
    for (const list of LISTS_OF[kind]) {
      delete this.cache[list];
      delete this.hints[list];
    }
    if (kind === 'resources') this.listers = undefined;
    if (kind === 'tools') {
      this.taskTools = undefined;
      delete this.cache.toolsWithoutTasks;
    }
    for (const listener of this.listeners) listener(kind);
    return true;
  }
}
