import { valueFlag } from './arguments';
import { EXIT, type Command } from './command';
import { loadServer } from './server-module';
import { listAll, type ServerLists } from './server-lists';
import { schemaSummary } from './schema-summary';

export const listCommand: Command = {
  name: 'list',
  summary: 'print the tools, resources, resource templates and prompts',
  usage: `Usage: phantom-mcp list <module> [--json] [--export <name>]

Prints what the module's server serves: its tools with their arguments (name, type, required),
its resources, resource templates and prompts. With --json, the lists exactly as tools/list,
resources/list, resources/templates/list and prompts/list return them (every page), as one object.

  --json          print { tools, resources, resourceTemplates, prompts } as JSON
  --export <name> take this named export of the module instead of looking for one
`,
  positionals: ['module'],
  flags: { json: 'switch', export: 'value' },
  async run(args, io) {
    const server = await loadServer(args.positionals.module, io.cwd, { exportName: valueFlag(args, 'export') });
    try {
      const lists = await listAll(server);
      io.out(args.flags.json === true ? `${JSON.stringify(lists, null, 2)}\n` : readable(lists));
      return EXIT.ok;
    } finally {
      await server.close();
    }
  },
};

/** For a terminal: one section per list, an item per line, a tool's arguments indented under it. */
function readable(lists: ServerLists): string {
  const lines: string[] = [];
  const section = <T>(title: string, items: readonly T[], entry: (item: T) => string[]) => {
    lines.push(`${title} (${items.length})`);
    for (const item of items) lines.push(...entry(item).map((line, at) => `${at === 0 ? '  ' : '      '}${line}`));
    lines.push('');
  };
  section('Tools', lists.tools, (tool) => [headline(tool.name, tool.title, tool.description), ...schemaSummary(tool.inputSchema)]);
  section('Resources', lists.resources, (resource) => [headline(resource.uri, resource.title ?? resource.name, resource.description, resource.mimeType)]);
  section('Resource templates', lists.resourceTemplates, (template) => [headline(template.uriTemplate, template.title ?? template.name, template.description, template.mimeType)]);
  section('Prompts', lists.prompts, (prompt) => [
    headline(prompt.name, prompt.title, prompt.description),
    ...(prompt.arguments ?? []).map((argument) => `${argument.name}${argument.required ? ' (required)' : ''}${argument.description ? `: ${argument.description}` : ''}`),
  ]);
  return `${lines.join('\n')}`;
}

function headline(name: string, title: string | undefined, description: string | undefined, mimeType?: string): string {
  const label = title && title !== name ? ` (${title})` : '';
  return `${name}${label}${description ? ` - ${description}` : ''}${mimeType ? ` [${mimeType}]` : ''}`;
}
