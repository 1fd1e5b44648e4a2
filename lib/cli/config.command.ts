import { resolve, join } from 'node:path';
import { UsageError, valueFlag } from './arguments';
import { EXIT, type Command } from './command';
import { loadServer } from './server-module';

/** Where each client reads its MCP servers from, and under which key. */
const CLIENTS = {
  claude: { key: 'mcpServers', stdioType: false, where: 'claude_desktop_config.json (macOS: ~/Library/Application Support/Claude/; Windows: %APPDATA%\\Claude\\), under "mcpServers"; then restart Claude Desktop' },
  cursor: { key: 'mcpServers', stdioType: false, where: '.cursor/mcp.json in the project (or ~/.cursor/mcp.json for every project), under "mcpServers"' },
  vscode: { key: 'servers', stdioType: true, where: '.vscode/mcp.json in the workspace (or the user mcp.json), under "servers"' },
} as const;

type Client = keyof typeof CLIENTS;

export const configCommand: Command = {
  name: 'config',
  summary: 'print the JSON a client (claude, cursor, vscode) needs to run the server over stdio',
  usage: `Usage: phantom-mcp config <module> --client claude|cursor|vscode [--name <n>] [--export <name>]

Prints the JSON snippet to merge into the client's MCP configuration so that it starts the
module's server over stdio: Claude Desktop and Cursor read "mcpServers", VS Code reads "servers"
with "type": "stdio". Where the file is goes to stderr, the JSON alone to stdout.

The command is this node (its absolute path) running this package's binary (its absolute path)
on the module's absolute path: clients start servers from their own working directory and,
launched from a desktop, often without your shell's PATH, so neither "npx phantom-mcp" (which
would not find this project's install, and would fetch the package) nor a bare "node" is sure
to work; absolute paths need no global install.

  --client <c>    claude, cursor or vscode (required)
  --name <n>      the server's key in the configuration (default: the server's name)
  --export <name> take this named export of the module instead of looking for one
`,
  positionals: ['module'],
  flags: { client: 'value', name: 'value', export: 'value' },
  async run(args, io) {
    const client = valueFlag(args, 'client');
    if (client === undefined) throw new UsageError('--client is required: claude, cursor or vscode');
    if (!Object.hasOwn(CLIENTS, client)) throw new UsageError(`--client must be claude, cursor or vscode; got ${JSON.stringify(client)}`);
    const exportName = valueFlag(args, 'export');
    // Loading it checks the module serves (and names the server); the client would fail later and less clearly.
    const server = await loadServer(args.positionals.module, io.cwd, { exportName });
    await server.close();
    const name = valueFlag(args, 'name') ?? server.info.name;
    const target = CLIENTS[client as Client];
    const serveArgs = [join(__dirname, 'main.js'), 'serve', resolve(io.cwd, args.positionals.module), ...(exportName ? ['--export', exportName] : [])];
    const entry = { ...(target.stdioType ? { type: 'stdio' } : {}), command: process.execPath, args: serveArgs };
    io.err(`Add to ${target.where}:\n`);
    io.out(`${JSON.stringify({ [target.key]: { [name]: entry } }, null, 2)}\n`);
    return EXIT.ok;
  },
};
