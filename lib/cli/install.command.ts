import { resolve } from 'node:path';
import { UsageError, valueFlag, type ParsedArguments } from './arguments';
import { CommandError, EXIT, type CliIo, type Command } from './command';
import { CLIENT_FLAGS, CLIENT_FLAGS_USAGE, clientOf, clientRequest } from './clients/client-request';
import { CLIENT_NAMES, type ClientSpec } from './clients/client-table';
import { readConfig, writeConfig } from './clients/config-file';
import { FORMATS } from './clients/config-formats';
import type { Scope } from './clients/config-locations';

const SCOPES: readonly Scope[] = ['user', 'project'];

/** `phantom-mcp install`: writes the server into a client's configuration file, with a backup. */
export const installCommand: Command = {
  name: 'install',
  summary: 'write the server into a client\'s configuration file (with a backup)',
  usage: `Usage: phantom-mcp install <module> --client ${CLIENT_NAMES.join('|')} [--scope user|project]
                           [--file <path>] [--name <n>] [--http <url>] [--dry-run] [--export <name>]

Writes the entry phantom-mcp config prints into the client's configuration file: the file is
read, the server added (or put in place of the one of that name), every other key and server
kept; the old file is first copied byte for byte to <file>.bak (or <file>.<time>.bak when that
exists), and the new one written to a temporary file and renamed over it. A missing file is
created, with its folders. A file with comments or trailing commas (VS Code and Cursor allow
them), or that is not valid JSON, is refused rather than rewritten without them.

  user scope:    Claude Desktop  macOS ~/Library/Application Support/Claude/claude_desktop_config.json,
                                 Windows %APPDATA%\\Claude\\claude_desktop_config.json (none on Linux)
                 Claude Code     ~/.claude.json
                 Cursor          ~/.cursor/mcp.json
                 VS Code         the user mcp.json (macOS ~/Library/Application Support/Code/User,
                                 Windows %APPDATA%\\Code\\User, Linux ~/.config/Code/User)
                 Windsurf        ~/.codeium/windsurf/mcp_config.json
                 Codex           ~/.codex/config.toml (or $CODEX_HOME/config.toml)
  project scope: .mcp.json (Claude Code), .cursor/mcp.json, .vscode/mcp.json, .codex/config.toml
                 in the working directory

The entry holds this machine's absolute paths, so user scope is the default: a project's file
is usually shared. Declared environment variables: a default is written as the value, a
required one as the client's way of asking for it, an optional one left out; a secret's value
is never written. What is left to you (a variable to set) goes to stderr.

${CLIENT_FLAGS_USAGE}
  --scope <s>     user (default) or project
  --file <path>   write this file instead (e.g. Claude Desktop on Linux, VS Code Insiders)
  --dry-run       print the file as it would be written, and change nothing
`,
  positionals: ['module'],
  flags: { ...CLIENT_FLAGS, scope: 'value', file: 'value', 'dry-run': 'switch' },
  async run(args, io) {
    const client = clientOf(args);
    const scope = scopeOf(args);
    const given = valueFlag(args, 'file');
    const file = given === undefined ? located(client, scope, io) : resolve(io.cwd, given);
    const { change, notes } = await clientRequest(args, io);
    const before = readConfig(file);
    const merged = FORMATS[client.format].merge(before, file, change);
    const todo = [...notes, ...(scope === 'project' && given === undefined ? projectNotes(client) : [])];
    if (todo.length) io.err(`Notes:\n${todo.map((note) => `  - ${note}`).join('\n')}\n`);
    const what = `"${change.name}" ${merged.replaced ? 'replaced in' : 'added to'} ${file}`;
    if (args.flags['dry-run'] === true) {
      const would = `${merged.replaced ? 'replace' : 'add'} "${change.name}" ${merged.replaced ? 'in' : 'to'} ${file}${before === undefined ? ' (a new file)' : ', backing the old file up first'}`;
      io.err(`Dry run, nothing written. It would ${would}; the file would read:\n`);
      io.out(merged.text);
      return EXIT.ok;
    }
    if (merged.text === before) {
      io.out(`"${change.name}" is already in ${file} as it would be written: nothing changed.\n`);
      return EXIT.ok;
    }
    const written = writeConfig(file, merged.text, new Date());
    io.out(`${what}${written.created ? ' (a new file)' : ''}.\n${written.backup ? `Backup of the old file: ${written.backup}\n` : ''}Then ${client.afterwards}.\n`);
    return EXIT.ok;
  },
};

function scopeOf(args: ParsedArguments): Scope {
  const scope = valueFlag(args, 'scope') ?? 'user';
  if (!SCOPES.includes(scope as Scope)) throw new UsageError(`--scope must be user or project; got ${JSON.stringify(scope)}`);
  return scope as Scope;
}

/** The client's file in that scope, or why there is none. */
function located(client: ClientSpec, scope: Scope, io: CliIo): string {
  const locate = client.files[scope];
  if (!locate) throw new CommandError(`${client.label} has no ${scope} configuration file; ${scope === 'project' ? 'use --scope user' : 'give one with --file'}`);
  return locate(io);
}

function projectNotes(client: ClientSpec): string[] {
  return [
    'the entry holds this machine\'s absolute paths (node, phantom-mcp, the module): others who share the project need their own',
    ...(client.projectNote ? [client.projectNote] : []),
  ];
}
