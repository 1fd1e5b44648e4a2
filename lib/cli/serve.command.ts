import { dirname } from 'node:path';
import { isRegistryName } from '../entries/http';
import type { PhantomServer } from '../index';
import { portFlag, valueFlag, type ParsedArguments } from './arguments';
import { EXIT, type Command, type CliIo } from './command';
import { nearestPackage } from './distribution/server-facts';
import { loadServer, modulePath } from './server-module';
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

/**
 * The registry name the server card takes, as the `card` command does: the server's own name when
 * it has the registry's form, else the `mcpName` of the module's package.json (undefined: the
 * server's name as it is).
 */
function cardName(server: PhantomServer, module: string): string | undefined {
  return isRegistryName(server.info.name) ? undefined : nearestPackage(dirname(module))?.mcpName;
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
    const name = settings.http ? cardName(server, modulePath(args.positionals.module, io.cwd)) : undefined;
    await serve(server, name === undefined ? settings : { ...settings, httpOptions: { ...settings.httpOptions, serverCard: { name } } });
    return EXIT.ok;
  },
};
