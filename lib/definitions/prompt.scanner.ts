import type { PromptOptions } from '../metadata/prompt-options';
import type { MemberRecord } from '../metadata/metadata-store';
import type { WirePrompt, WirePromptArgument } from '../core/wire.types';
import { argumentClassProblems, compileClassSchema, type JsonSchema } from '../schema';
import { compileCompleters } from './completion-source';
import type { PromptDefinition } from './definitions';
import { bindInvoker, readHandlerSignature } from './handler-signature';
import { definedOnly } from '../core/defined-only';
import { scanPipelineMembers } from './pipeline-members.scanner';
import { scanScopes } from './scopes.scanner';
import { attempt, labelOf, report, type ScanScope } from './scan-scope';

export function scanPrompt(scope: ScanScope, record: MemberRecord<PromptOptions>): PromptDefinition | undefined {
  const { options, propertyKey } = record;
  const label = labelOf(scope, propertyKey);
  const problemsBefore = scope.problems.length;
  const name = options.name ?? propertyKey;
  if (!name.trim()) scope.problems.push(`${label}: prompt name must not be empty`);

  const signature = readHandlerSignature(scope.proto, propertyKey, { input: options.input, canNameInput: true });
  if (signature.problem) scope.problems.push(`${label}: ${signature.problem}`);
  const schema = signature.inputClass ? attempt(scope.problems, label, () => compileClassSchema(signature.inputClass!)) : undefined;
  if (signature.inputClass) report(scope.problems, label, argumentClassProblems(signature.inputClass));
  if (signature.inputClass && schema) report(scope.problems, label, unsendableArguments(signature.inputClass, schema));
  const args = schema ? argumentsOf(schema) : [];
  const completionProblems: string[] = [];
  const completers = compileCompleters(options.complete, args.map((a) => a.name), scope.proto, scope.resolve, completionProblems);
  scope.problems.push(...completionProblems.map((p) => `${label}: ${p}`));
  const pipeline = scanPipelineMembers(scope, propertyKey, label);
  const scopes = scanScopes(scope, propertyKey, label, options.scopes);
  if (scope.problems.length > problemsBefore) return undefined;

  const descriptor: WirePrompt = Object.freeze(definedOnly({
    name,
    title: options.title,
    description: options.description,
    arguments: args.length > 0 ? args : undefined,
    icons: options.icons,
    _meta: options._meta,
  }));
  return Object.freeze({
    kind: 'prompt',
    name,
    label,
    descriptor,
    inputClass: signature.inputClass,
    completers,
    cache: options.cache,
    owner: scope.cls,
    member: propertyKey,
    pipeline,
    scopes,
    invoke: bindInvoker(scope.resolve, propertyKey, signature),
  });
}

/** What a property holds that a string cannot become, by the schema keyword that says so. */
const UNSENDABLE: ReadonlyArray<readonly [string, (s: JsonSchema) => boolean]> = [
  ['a nested object', holdsObject],
  ['an array', (s) => s.type === 'array' || s.items !== undefined],
];

/** A nested DTO is inlined, referenced, or (discriminated) one of several. */
function holdsObject(s: JsonSchema): boolean {
  return s.$ref !== undefined || s.properties !== undefined || s.type === 'object'
    || (Array.isArray(s.anyOf) && s.anyOf.some((member) => holdsObject(member as JsonSchema)));
}

/**
 * Prompt arguments arrive as strings (converted to numbers and booleans where the DTO says so),
 * so a property that holds an object or a list can never be given: a start-up error, not a
 * prompt that no client can satisfy.
 */
function unsendableArguments(cls: Function, schema: JsonSchema): string[] {
  return Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>).flatMap(([name, property]) => {
    const what = UNSENDABLE.find(([, holds]) => holds(property))?.[0];
    return what ? [`${cls.name}#${name}: is ${what}; prompt arguments are strings, so no client can send it (use a string, number, boolean or enum property)`] : [];
  });
}

/** Prompt arguments are the DTO's top-level properties: name, title, description, required. */
function argumentsOf(schema: JsonSchema): WirePromptArgument[] {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => Object.freeze(definedOnly({
    name,
    title: property.title as string | undefined,
    description: property.description as string | undefined,
    required: required.has(name),
  })));
}
