import type { ToolOptions } from '../metadata/tool-options';
import type { MemberRecord } from '../metadata/metadata-store';
import type { ToolAnnotations, WireTool } from '../core/wire.types';
import { argumentClassProblems, compileClassSchema, compileOutputCheck, compileSchemaCheck, mcpHeaderProblems, type SchemaCheck } from '../schema';
import type { ToolDefinition } from './definitions';
import { bindInvoker, readHandlerSignature } from './handler-signature';
import { definedOnly } from '../core/defined-only';
import { scanPipelineMembers } from './pipeline-members.scanner';
import { scanScopes } from './scopes.scanner';
import { attempt, labelOf, report, type ScanScope } from './scan-scope';

/** Tool names the spec allows: what clients accept and route by. */
export const TOOL_NAME = /^[A-Za-z0-9_.-]{1,64}$/;

const EMPTY_OBJECT_SCHEMA = Object.freeze({ type: 'object' });
const NO_REQUIREMENTS: readonly string[] = Object.freeze([]);

export function scanTool(scope: ScanScope, record: MemberRecord<ToolOptions>): ToolDefinition | undefined {
  const { options, propertyKey } = record;
  const label = labelOf(scope, propertyKey);
  const problemsBefore = scope.problems.length;
  const name = options.name ?? propertyKey;
  if (!TOOL_NAME.test(name)) scope.problems.push(`${label}: tool name "${name}" must match ${TOOL_NAME.source}`);
  if (!options.description?.trim()) scope.problems.push(`${label}: tool "${name}" needs a description (clients reject tools without one)`);
  if (options.task !== undefined && options.task !== 'optional' && options.task !== 'required') scope.problems.push(`${label}: "task" must be 'optional' or 'required'`);
  if (options.taskStart !== undefined && !options.task) scope.problems.push(`${label}: "taskStart" needs "task"`);

  const signature = readHandlerSignature(scope.proto, propertyKey, { input: options.input, canNameInput: true });
  let inputCheck: SchemaCheck | undefined;
  if (options.inputSchema) {
    if (options.input) scope.problems.push(`${label}: give "input" or "inputSchema", not both`);
    if (options.inputSchema.type !== 'object') scope.problems.push(`${label}: "inputSchema" must have type "object"`);
    // The spec requires servers to validate tool input: compile the hand-written schema now, once.
    inputCheck = attempt(scope.problems, `${label}: "inputSchema"`, () => compileSchemaCheck(options.inputSchema!, 'arguments'));
  } else if (signature.problem) {
    scope.problems.push(`${label}: ${signature.problem}`);
  }
  const inputClass = options.inputSchema ? undefined : signature.inputClass;
  if (inputClass) report(scope.problems, label, argumentClassProblems(inputClass));
  const inputSchema = options.inputSchema
    ?? (inputClass ? attempt(scope.problems, label, () => compileClassSchema(inputClass)) : EMPTY_OBJECT_SCHEMA);
  // A client drops a tool whose header annotations break the rules: say so now, not never.
  const headerProblems = inputSchema ? mcpHeaderProblems(inputSchema) : [];
  if (headerProblems.length > 0) report(scope.problems, `${label}: tool "${name}"`, headerProblems);
  const output = options.output;
  const outputSchema = output ? attempt(scope.problems, label, () => compileClassSchema(output)) : undefined;
  const outputCheck = output && outputSchema
    ? attempt(scope.problems, `${label}: output ${output.name}`, () => compileOutputCheck(output))
    : undefined;
  const pipeline = scanPipelineMembers(scope, propertyKey, label);
  const scopes = scanScopes(scope, propertyKey, label, options.scopes);
  if (scope.problems.length > problemsBefore) return undefined;

  const descriptor: WireTool = Object.freeze(definedOnly({
    name,
    title: options.title,
    description: options.description,
    inputSchema: inputSchema!,
    outputSchema,
    annotations: annotationsOf(options),
    icons: options.icons,
    execution: options.task ? { taskSupport: options.task } : undefined,
    _meta: options._meta,
  }));
  return Object.freeze({
    kind: 'tool',
    name,
    label,
    descriptor,
    inputClass,
    inputCheck,
    outputCheck,
    requires: options.requires ? Object.freeze([...options.requires]) : NO_REQUIREMENTS,
    taskSupport: options.task ?? 'forbidden',
    taskStart: options.taskStart ?? 'at-once',
    cache: options.cache,
    owner: scope.cls,
    member: propertyKey,
    pipeline,
    scopes,
    invoke: bindInvoker(scope.resolve, propertyKey, signature),
  });
}

function annotationsOf(options: ToolOptions): ToolAnnotations | undefined {
  const { readOnly, destructive, idempotent, openWorld } = options;
  if (readOnly === undefined && destructive === undefined && idempotent === undefined && openWorld === undefined) return undefined;
  const annotations = definedOnly({
    readOnlyHint: options.readOnly,
    destructiveHint: options.destructive,
    idempotentHint: options.idempotent,
    openWorldHint: options.openWorld,
  });
  return Object.keys(annotations).length > 0 ? Object.freeze(annotations) : undefined;
}
