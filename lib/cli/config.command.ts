import { EXIT, type Command } from './command';
import { CLIENT_FLAGS, CLIENT_FLAGS_USAGE, clientRequest } from './clients/client-request';
import { CLIENT_NAMES, type ClientSpec } from './clients/client-table';
import { FORMATS } from './clients/config-formats';
import type { Place, Scope } from './clients/config-locations';

/** `phantom-mcp config`: prints the entry a client needs to run the server, and where its files are. */
export const configCommand: Command = {
  name: 'config',
  summary: `print what a client (${CLIENT_NAMES.join(', ')}) needs to run the server`,
  usage: `Usage: phantom-mcp config <module> --client ${CLIENT_NAMES.join('|')} [--name <n>] [--http <url>] [--export <name>]

Prints the entry to merge into the client's MCP configuration so that it starts the module's
server over stdio: JSON under "mcpServers" for Claude Desktop, Claude Code, Cursor and Windsurf,
under "servers" with "type": "stdio" for VS Code, a [mcp_servers.<name>] TOML table for Codex.
Where the files are goes to stderr, the entry alone to stdout; phantom-mcp install writes it.

The command is this node (its absolute path) running this package's binary (its absolute path)
on the module's absolute path: clients start servers from their own working directory and,
launched from a desktop, often without your shell's PATH, so neither "npx phantom-mcp" (which
would not find this project's install, and would fetch the package) nor a bare "node" is sure
to work; absolute paths need no global install. The environment variables the server declares
are in "env": a default as its value, a required one as the client's way of asking for it (VS
Code "inputs", \${NAME} for Claude Code, \${env:NAME} for Cursor and Windsurf, env_vars for
Codex); a secret's value is never written.

${CLIENT_FLAGS_USAGE}
`,
  positionals: ['module'],
  flags: CLIENT_FLAGS,
  async run(args, io) {
    const { client, change, notes } = await clientRequest(args, io);
    io.err(`Add to ${where(client, io)}${notes.map((note) => `\n  - ${note}`).join('')}\n`);
    io.out(FORMATS[client.format].snippet(change));
    return EXIT.ok;
  },
};

/** The client's files on this system, a line per scope, and what to do after. */
function where(client: ClientSpec, place: Place): string {
  const files = (Object.entries(client.files) as [Scope, NonNullable<ClientSpec['files'][Scope]>][]).map(([scope, locate]) => {
    try {
      return `  ${`${scope}:`.padEnd(9)}${locate(place)}`;
    } catch (error) {
      return `  ${`${scope}:`.padEnd(9)}${(error as Error).message}`;
    }
  });
  return `${client.label}'s configuration, under ${client.format === 'toml' ? `[${client.key}.<name>]` : `"${client.key}"`} (or run phantom-mcp install):\n${files.join('\n')}\nthen ${client.afterwards}`;
}
