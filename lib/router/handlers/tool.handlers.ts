import type { Context } from '../../context/context';
import type { Diagnostics } from '../../core/diagnostics';
import { Method } from '../../core/methods';
import { knowsTasks } from '../../core/revisions';
import type { CallToolResult, JsonObject, WireTool } from '../../core/wire.types';
import type { ToolDefinition } from '../../definitions/definitions';
import { invalidOutput } from '../../results/tool-failure';
import { normaliseToolResult } from '../../results/tool-result';
import { issuePath, type OutputCheck } from '../../schema';
import { classPipe, schemaPipe } from '../pipeline/argument-pipe';
import { TARGET_ERROR_POLICY } from '../pipeline/error-policy';
import type { TargetSteps } from '../pipeline/operation-pipeline';
import { pagedList } from './paged-list';
import type { Registry } from '../registry';
import { optionalObject, requireString, type HandlerDeps, type MethodEntry, type ToolView } from './method-handler';

export function toolHandlers(deps: HandlerDeps): MethodEntry[] {
  const { registry, diagnostics, visibility, pipelines, maxArrayItems, toolView, fallbackOf } = deps;
  const compile = (tool: ToolDefinition) => toolSteps(tool, diagnostics, maxArrayItems);
  const listed = (ctx: Context) => registry.toolList(knowsTasks(ctx.protocolVersion));
  // Without an extension's say, the registry's cached list as is; with one, what this client sees of each tool.
  const items = toolView ? (ctx: Context) => viewedTools(listed(ctx), registry, toolView, ctx) : listed;
  return [
    pagedList(deps, { method: Method.ToolsList, list: 'tools', resultKey: 'tools', items, known: (t, principal) => visibility.tool(t.name, principal) }),
    // Not async: the pipeline's promise is the call's (a throw here reaches the router's catch all the same).
    [Method.ToolsCall, (params, ctx) => {
      const name = requireString(params, 'name');
      const tool = visibility.tool(name, ctx.principal);
      // Hidden from this client by an extension: unknown to its calls as to its lists.
      const listed = tool && (toolView ? toolView(tool, tool.descriptor, ctx) : tool.descriptor);
      if (!tool || !listed) throw TARGET_ERROR_POLICY.tool.unknown(name);
      const args = optionalObject(params, 'arguments');
      // An extension may ask the user another way for the forms this client cannot show (a re-run brings its own).
      const fallback = fallbackOf && !ctx.hasElicitationFallback ? fallbackOf(tool, listed, args, ctx) : undefined;
      return pipelines.target(tool, compile).run(name, args, fallback ? ctx.derive({ elicitationFallback: fallback }) : ctx);
    }],
  ];
}

/** The tools as this request's client sees them: each through the extensions' view, those hidden from it left out. */
function viewedTools(tools: readonly WireTool[], registry: Registry, view: ToolView, ctx: Context): WireTool[] {
  const seen: WireTool[] = [];
  for (const listed of tools) {
    const definition = registry.tool(listed.name);
    const tool = definition ? view(definition, listed, ctx) : listed;
    if (tool !== undefined) seen.push(tool);
  }
  return seen;
}

/**
 * A tool's steps: its DTO or `inputSchema` as the pipe, its required client capabilities checked
 * before the handler, its task started (when the call may be one and the tool starts it at once),
 * its `output` DTO checked after.
 */
function toolSteps(tool: ToolDefinition, diagnostics: Diagnostics, maxArrayItems: number): TargetSteps {
  return {
    kind: 'tool',
    method: Method.ToolsCall,
    label: tool.label,
    owner: tool.owner,
    member: tool.member,
    pipe: tool.inputClass ? classPipe(tool.inputClass, false, maxArrayItems) : tool.inputCheck ? schemaPipe(tool.inputCheck, maxArrayItems) : undefined,
    invoke: invokerOf(tool),
    map: (value) => toolResult(tool, value, diagnostics),
    policy: TARGET_ERROR_POLICY.tool,
  };
}

/** The handler, after what must hold before it runs: the capabilities it requires, then its task started. */
function invokerOf(tool: ToolDefinition): TargetSteps['invoke'] {
  const { requires, invoke } = tool;
  const startsTask = tool.taskSupport !== 'forbidden' && tool.taskStart === 'at-once';
  if (requires.length === 0 && !startsTask) return invoke;
  return async (input: unknown, ctx: Context, target: string) => {
    ctx.requireCapabilities(requires);
    if (startsTask) await ctx.runAsTask();
    return invoke(input, ctx, target);
  };
}

/** The tool's result; checked against its `output` DTO when it has one (the only asynchronous case). */
function toolResult(tool: ToolDefinition, value: unknown, diagnostics: Diagnostics): JsonObject | Promise<JsonObject> {
  const result = normaliseToolResult(value);
  // An error result carries no structured content, and the client does not check it.
  if (!tool.outputCheck || result.isError) return result as unknown as JsonObject;
  return checkedOutput(tool, tool.outputCheck, result, diagnostics);
}

async function checkedOutput(tool: ToolDefinition, check: OutputCheck, result: CallToolResult, diagnostics: Diagnostics): Promise<JsonObject> {
  const issues = await check(result.structuredContent);
  return (issues.length > 0 ? invalidOutput(tool, [...new Set(issues.map(issuePath))], issues, diagnostics) : result) as unknown as JsonObject;
}
