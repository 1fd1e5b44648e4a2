import { portFlag, valueFlag, type ParsedArguments } from './arguments';
import { EXIT, type Command, type CliIo } from './command';
import { loadServer } from './server-module';
import { serve, type ServeSettings } from './serving';

/** The flags `serve` and `dev` share. */
export const SERVE_FLAGS = { http: 'switch', port: 'value', host: 'value', export: 'value' } as const;

export const SERVE_FLAGS_USAGE = `  --http          serve Streamable HTTP at http://<host>:<port>/mcp instead of stdio
  --port <n>      the HTTP port (default 3000; 0 picks a free one)
  --host <h>      the HTTP interface (default 127.0.0.1)
  --export <name> take this named export of the module instead of looking for one`;

export function serveSettings(args: ParsedArguments, io: CliIo): ServeSettings {
  return { http: args.flags.http === true, port: portFlag(args, 3000), host: valueFlag(args, 'host'), log: (line) => io.err(`${line}\n`) };
}

export const serveCommand: Command = {
  name: 'serve',
  summary: 'serve the module\'s server over stdio (default) or Streamable HTTP',
  usage: `Usage: phantom-mcp serve <module> [--http] [--port <n>] [--host <h>] [--export <name>]

Serves the server of a compiled module (a .js file, relative to the working directory) over
stdio, for a desktop client, or over Streamable HTTP with --http. The module exports a
PhantomServer (default or named), a function returning one (default or createServer), or
provider classes. SIGINT and SIGTERM let the calls in flight finish, then exit 0.

${SERVE_FLAGS_USAGE}
`,
  positionals: ['module'],
  flags: SERVE_FLAGS,
  async run(args, io) {
    const settings = serveSettings(args, io);
    const server = await loadServer(args.positionals.module, io.cwd, { exportName: valueFlag(args, 'export') });
    await serve(server, settings);
    return EXIT.ok;
  },
};
