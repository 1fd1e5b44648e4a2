import type { Context } from '../../context/context';
import { invalidArguments, toolFailure } from '../../protocol/error-mapper';
import { ProtocolError } from '../../protocol/errors';
import { Method } from '../../protocol/methods';
import type { CallToolResult, JsonObject } from '../../protocol/wire.types';
import { normaliseToolResult, ToolResult } from '../../results/tool-result';
import type { ToolDefinition } from '../../scanner/definitions';
import { validateArguments } from '../../schema';
import { EVERYTHING_VISIBLE, type Visibility, type VisibleItem } from '../visibility';
import { optionalObject, requireString, type HandlerDeps, type MethodEntry } from './method-handler';

export function toolHandlers({ registry, paginator, diagnostics, visible }: HandlerDeps): MethodEntry[] {
  return [
    [Method.ToolsList, async (params, ctx) => {
      const tools = filtered(registry.toolList(), visible, ctx, (t) => ({ kind: 'tool', name: t.name }));
      const page = paginator.page('tools', tools, params.cursor);
      return withCursor({ tools: page.items }, page.nextCursor);
    }],
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
  }
  try {
    return normaliseToolResult(await tool.invoke(input, ctx));
  } catch (error) {
    return toolFailure(error, tool.label, diagnostics);
  }
}

/** The items the caller may see; the list itself when everything is visible (the common case). */
export function filtered<T>(items: readonly T[], visible: Visibility, ctx: Context, itemOf: (item: T) => VisibleItem): readonly T[] {
  return visible === EVERYTHING_VISIBLE ? items : items.filter((item) => visible(itemOf(item), ctx.principal));
}

export function withCursor<T extends JsonObject>(result: T, nextCursor: string | undefined): T {
  return nextCursor === undefined ? result : { ...result, nextCursor };
}
