import type { PromptOptions } from '../metadata/prompt-options';
import type { ResourceRecord } from '../metadata/resource-options';
import type { ToolOptions } from '../metadata/tool-options';
import { METADATA_KEYS } from '../metadata/metadata-keys';
import { readMembers, readMisplaced, type Constructor } from '../metadata/metadata-store';
import { DefinitionError } from '../core/errors';
import { formClassProblems } from '../schema';
import type { Definitions, ResourceDefinition } from './definitions';
import { scanPrompt } from './prompt.scanner';
import type { InstanceSource } from './instance-source';
import { scanResource } from './resource.scanner';
import { classPipelineProblems } from './pipeline-members.scanner';
import { classDeclarations, type ScanScope } from './scan-scope';
import { scanTool } from './tool.scanner';

export interface ScanInput {
  /** The provider classes, as the user listed them. */
  readonly providers: readonly Constructor[];
  /** `@Elicit` form classes to check at start-up. */
  readonly forms?: readonly Constructor[];
  /** Resolves a provider's instance (from the server's container). */
  readonly resolve: (cls: Constructor) => object;
  /** The classes to check instances can be had for (the providers; the guards and interceptors they name are added), and where from. */
  readonly wiring?: { readonly classes: readonly Constructor[]; readonly source: Pick<InstanceSource, 'isRegistered' | 'problems'> };
}

/**
 * Compiles decorated classes into definitions. Every problem in every class is collected and
 * thrown at once as a `DefinitionError`, each line labelled `Class#member`.
 */
export function scan(input: ScanInput): Definitions {
  const problems: string[] = [];
  const definitions: Definitions = { tools: [], prompts: [], resources: [] };
  problems.push(...listedTwice(input.providers));
  for (const cls of new Set(input.providers)) scanClass(cls, input.resolve, problems, definitions);
  for (const form of input.forms ?? []) problems.push(...formClassProblems(form));
  if (input.wiring) {
    const { classes, source } = input.wiring;
    problems.push(...source.problems([...classes, ...memberClasses(definitions, source.isRegistered)]));
  }
  problems.push(...duplicates(definitions));
  if (problems.length > 0) throw new DefinitionError(problems);
  return definitions;
}

function scanClass(cls: Constructor, resolve: (cls: Constructor) => object, problems: string[], into: Definitions): void {
  if (typeof cls !== 'function') {
    problems.push(`providers must be classes; got ${String(cls)}`);
    return;
  }
  const scope: ScanScope = { cls, proto: cls.prototype, resolve: () => resolve(cls), problems, onClass: classDeclarations(cls) };
  for (const misplaced of readMisplaced(cls)) {
    problems.push(`${cls.name}#${misplaced.propertyKey}: ${misplaced.decorator} belongs on ${misplaced.belongsOn ?? 'a method'}`);
  }
  problems.push(...classPipelineProblems(scope));
  for (const record of readMembers<ToolOptions>(METADATA_KEYS.tools, cls)) push(into.tools, scanTool(scope, record));
  for (const record of readMembers<PromptOptions>(METADATA_KEYS.prompts, cls)) push(into.prompts, scanPrompt(scope, record));
  for (const record of readMembers<ResourceRecord>(METADATA_KEYS.resources, cls)) push(into.resources, scanResource(scope, record));
}

/**
 * The guard and interceptor classes the definitions name that the source does not register as
 * they are: their instances are made (or fetched) like the providers', so they are checked with them.
 */
function memberClasses(definitions: Definitions, isRegistered: (token: unknown) => boolean): Constructor[] {
  const all: unknown[] = [...definitions.tools, ...definitions.prompts, ...definitions.resources]
    .flatMap(({ pipeline }) => [...pipeline.guards, ...pipeline.interceptors]);
  return [...new Set(all)].filter((ref): ref is Constructor => typeof ref === 'function' && !isRegistered(ref));
}

/** A class listed more than once would collide with itself; say so once, and scan it once. */
function listedTwice(providers: readonly Constructor[]): string[] {
  const counts = new Map<Constructor, number>();
  for (const cls of providers) if (typeof cls === 'function') counts.set(cls, (counts.get(cls) ?? 0) + 1);
  return [...counts].filter(([, n]) => n > 1)
    .map(([cls, n]) => `${cls.name} is listed ${n === 2 ? 'twice' : `${n} times`} in providers`);
}

function push<T>(list: T[], item: T | undefined): void {
  if (item !== undefined) list.push(item);
}

/** The key a definition is addressed by; two definitions with one key cannot both be served. */
export function resourceKey(definition: ResourceDefinition): string {
  return definition.kind === 'resource' ? definition.uri : definition.uriTemplate.source;
}

function duplicates(definitions: Definitions): string[] {
  return [
    ...collide('tool name', definitions.tools, (d) => d.name),
    ...collide('prompt name', definitions.prompts, (d) => d.name),
    ...collide('resource URI', definitions.resources, resourceKey),
  ];
}

function collide<T extends { label: string }>(what: string, items: readonly T[], keyOf: (item: T) => string): string[] {
  // The first label per key, and a list only for a key seen twice: start-up checks every definition.
  const first = new Map<string, string>();
  const shared = new Map<string, string[]>();
  for (const item of items) {
    const key = keyOf(item);
    const seen = first.get(key);
    if (seen === undefined) first.set(key, item.label);
    else shared.set(key, [...(shared.get(key) ?? [seen]), item.label]);
  }
  // In the order the keys first appear.
  return [...first.keys()].filter((key) => shared.has(key))
    .map((key) => `duplicate ${what} "${key}": ${shared.get(key)!.join(', ')}`);
}
