import { UsageError, valueFlag } from './arguments';
import { EXIT, type Command } from './command';
import { InProcessClient } from './in-process-client';
import { loadServer } from './server-module';
import type { CallToolResult, ContentBlock, JsonObject } from '../index';
import { Method } from '../entries/protocol';

/** Sent with the call so that the tool's `ctx.progress` reports reach stderr (it reports nothing without one). */
const PROGRESS_TOKEN = 'phantom-mcp-call';

export const callCommand: Command = {
  name: 'call',
  summary: 'call a tool in-process and print its result',
  usage: `Usage: phantom-mcp call <module> <tool> [--args <json>] [--json] [--export <name>]

Calls one tool of the module's server in this process, through a connected in-memory client,
and prints the result: its structured content as JSON when it has some, else each content
block (text as text, other blocks as JSON). Logs and progress go to stderr, a line each
([progress] 1/3 "message"); stdout holds the result alone. Exits 1 on an error
result or a JSON-RPC error. A tool that asks the user for input (elicitation) cannot be answered
here: call it from an MCP client.

  --args <json>   the tool's arguments, a JSON object (default {})
  --json          print the whole result as JSON
  --export <name> take this named export of the module instead of looking for one
`,
  positionals: ['module', 'tool'],
  flags: { args: 'value', json: 'switch', export: 'value' },
  async run(args, io) {
    const toolArguments = argumentsOf(valueFlag(args, 'args'));
    const server = await loadServer(args.positionals.module, io.cwd, { exportName: valueFlag(args, 'export') });
    const client = await InProcessClient.connect(server, { note: (line) => io.err(`${line}\n`) });
    try {
      const response = await client.request(Method.ToolsCall, { name: args.positionals.tool, arguments: toolArguments, _meta: { progressToken: PROGRESS_TOKEN } });
      for (const refusal of client.refused) {
        io.err(`${args.positionals.tool} asked the user for input (${refusal.method}${refusal.message === undefined ? '' : `: ${JSON.stringify(refusal.message)}`}); `
          + 'phantom-mcp call cannot answer that: call the tool from an MCP client (serve the module, or use the testing kit in a spec)\n');
      }
      if (response.error) {
        const error = response.error as JsonObject;
        io.err(`${args.positionals.tool}: JSON-RPC error ${String(error.code)}: ${String(error.message)}\n`);
        return EXIT.failed;
      }
      const result = response.result as unknown as CallToolResult;
      const text = args.flags.json === true ? `${JSON.stringify(result, null, 2)}\n` : printed(result);
      if (result.isError) io.err(text);
      else io.out(text);
      return result.isError || client.refused.length > 0 ? EXIT.failed : EXIT.ok;
    } finally {
      await client.close();
      await server.close();
    }
  },
};

function argumentsOf(text: string | undefined): JsonObject {
  if (text === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--args is not JSON: ${(error as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new UsageError('--args must be a JSON object, e.g. --args \'{"city":"Oslo"}\'');
  return value as JsonObject;
}

/** Structured content is the result (its text block repeats it); else the blocks in order. */
function printed(result: CallToolResult): string {
  if (result.structuredContent !== undefined && !result.isError) return `${JSON.stringify(result.structuredContent, null, 2)}\n`;
  return result.content.map((block: ContentBlock) => (block.type === 'text' ? block.text : JSON.stringify(block))).map((line) => `${line}\n`).join('');
}
