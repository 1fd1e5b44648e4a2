import type { Context } from '../../context/context';
import { invalidArguments } from '../../core/error-mapper';
import { invalidOutput, toolFailure } from '../../results/tool-failure';
import { ProtocolError } from '../../core/errors';
import { Method } from '../../core/methods';
import type { CallToolResult, JsonObject } from '../../core/wire.types';
import { normaliseToolResult, ToolResult } from '../../results/tool-result';
import type { ToolDefinition } from '../../definitions/definitions';
import { issuePath, validateArguments } from '../../schema';
import { pagedList } from './paged-list';
import { optionalObject, requireString, type HandlerDeps, type MethodEntry } from './method-handler';

export function toolHandlers(deps: HandlerDeps): MethodEntry[] {
  const { registry, diagnostics, visible } = deps;
  return [
    [Method.ToolsList, pagedList(deps, { list: 'tools', resultKey: 'tools', items: () => registry.toolList(), itemOf: (t) => ({ kind: 'tool', name: t.name }) })],
    [Method.ToolsCall, async (params, ctx) => {
      const name = requireString(params, 'name');
      const tool = registry.tool(name);
      if (!tool || !visible({ kind: 'tool', name }, ctx.principal)) throw ProtocolError.invalidParams(`Unknown tool: ${name}`);
      const args = optionalObject(params, 'arguments');
      return (await callTool(tool, args, ctx, diagnostics)) as unknown as JsonObject;
    }],
  ];
}

async function callTool(tool: ToolDefinition, args: JsonObject, ctx: Context, diagnostics: HandlerDeps['diagnostics']): Promise<CallToolResult> {
  let input: unknown = args;
  if (tool.inputClass) {
    const checked = await validateArguments(tool.inputClass, args);
    if (!checked.ok) return ToolResult.error(invalidArguments(`tool "${tool.name}"`, checked.issues));
    input = checked.value;
  } else if (tool.inputCheck) {
    const issues = tool.inputCheck(args);
    if (issues.length > 0) return ToolResult.error(invalidArguments(`tool "${tool.name}"`, issues));
  }
  let result: CallToolResult;
  try {
    if (tool.requires.length > 0) ctx.requireCapabilities(tool.requires);
    result = normaliseToolResult(await tool.invoke(input, ctx));
  } catch (error) {
    return toolFailure(error, tool.label, diagnostics);
  }
  // An error result carries no structured content, and the client does not check it.
  if (!tool.outputCheck || result.isError) return result;
  const issues = await tool.outputCheck(result.structuredContent);
  return issues.length > 0 ? invalidOutput(tool, [...new Set(issues.map(issuePath))], issues, diagnostics) : result;
}
