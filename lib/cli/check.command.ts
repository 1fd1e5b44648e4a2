import { valueFlag } from './arguments';
import { EXIT, type Command } from './command';
import { definitionProblems, loadServer } from './server-module';
import { listAll } from './server-lists';

export const checkCommand: Command = {
  name: 'check',
  summary: 'run the start-up checks and print every problem (exit 1 if any)',
  usage: `Usage: phantom-mcp check <module> [--export <name>]

Loads the module and builds its server, which checks every definition at once (names, schemas,
templates, forms, the providers' wiring). Prints every problem and exits 1 when there is one;
otherwise prints a one-line summary and exits 0. For CI.

  --export <name> take this named export of the module instead of looking for one
`,
  positionals: ['module'],
  flags: { export: 'value' },
  async run(args, io) {
    try {
      const server = await loadServer(args.positionals.module, io.cwd, { exportName: valueFlag(args, 'export') });
      const lists = await listAll(server);
      await server.close();
      const counts = [`${lists.tools.length} tools`, `${lists.resources.length} resources`, `${lists.resourceTemplates.length} resource templates`, `${lists.prompts.length} prompts`];
      io.out(`${server.info.name} ${server.info.version}: no problems (${counts.join(', ')})\n`);
      return EXIT.ok;
    } catch (error) {
      const problems = definitionProblems(error);
      if (!problems) throw error;
      io.err(`${args.positionals.module}: ${problems.length} ${problems.length === 1 ? 'problem' : 'problems'}\n${problems.map((problem) => `  - ${problem}\n`).join('')}`);
      return EXIT.failed;
    }
  },
};
