#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArguments, UsageError } from './arguments';
import { bundleCommand } from './bundle.command';
import { callCommand } from './call.command';
import { checkCommand } from './check.command';
import { CommandError, EXIT, type Command, type CliIo } from './command';
import { configCommand } from './config.command';
import { cardCommand } from './distribution/card.command';
import { devCommand } from './dev.command';
import { installCommand } from './install.command';
import { listCommand } from './list.command';
import { serveCommand } from './serve.command';
import { serverJsonCommand } from './server-json.command';
import { definitionProblems, ServerModuleError } from './server-module';

/** Every command, by the name typed after `phantom-mcp`. */
const COMMANDS: ReadonlyMap<string, Command> = new Map([serveCommand, checkCommand, listCommand, callCommand, devCommand, configCommand, installCommand, serverJsonCommand, bundleCommand, cardCommand].map((command) => [command.name, command]));

/** The summaries line up after the longest command name. */
const WIDTH = Math.max(...[...COMMANDS.keys()].map((name) => name.length)) + 2;

const USAGE = `Usage: phantom-mcp <command> <module> [options]

Works on a compiled module (a .js file built with tsc) that exports a PhantomServer, a function
returning one, or provider classes.

Commands:
${[...COMMANDS.values()].map((command) => `  ${command.name.padEnd(WIDTH)}${command.summary}`).join('\n')}

phantom-mcp <command> --help   the command's options
phantom-mcp --version          the package's version
`;

/** Runs one command line; resolves with the exit code. */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === '--help' || name === '-h' || name === 'help') return said(io.out, USAGE, EXIT.ok);
  if (name === '--version' || name === '-v') return said(io.out, `${packageVersion()}\n`, EXIT.ok);
  const command = name === undefined ? undefined : COMMANDS.get(name);
  if (!command) return said(io.err, `${name === undefined ? '' : `phantom-mcp: unknown command ${JSON.stringify(name)}\n\n`}${USAGE}`, EXIT.usage);
  if (rest.includes('--help') || rest.includes('-h')) return said(io.out, command.usage, EXIT.ok);
  try {
    return await command.run(parseArguments(command, rest), io);
  } catch (error) {
    if (error instanceof UsageError) return said(io.err, `phantom-mcp ${command.name}: ${error.message}\n\n${command.usage}`, EXIT.usage);
    return said(io.err, `phantom-mcp ${command.name}: ${failure(error)}\n`, EXIT.failed);
  }
}

function said(write: (text: string) => void, text: string, code: number): number {
  write(text);
  return code;
}

function failure(error: unknown): string {
  const problems = definitionProblems(error);
  if (problems) return `the server's definitions have ${problems.length} problem(s):\n${problems.map((problem) => `  - ${problem}`).join('\n')}`;
  if (error instanceof ServerModuleError || error instanceof CommandError) return error.message;
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

/** dist/lib/cli/main.js -> the package's own package.json. */
function packageVersion(): string {
  return (JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as { version: string }).version;
}

/** Exits once stdout and stderr have been written out: a pipe may still hold the output. */
function exitAfterFlush(code: number): void {
  let waiting = 2;
  const done = () => { if (--waiting === 0) process.exit(code); };
  process.stdout.write('', done);
  process.stderr.write('', done);
}

if (require.main === module) {
  const io: CliIo = { cwd: process.cwd(), env: process.env, platform: process.platform, input: process.stdin, out: (text) => void process.stdout.write(text), err: (text) => void process.stderr.write(text) };
  void main(process.argv.slice(2), io).then(exitAfterFlush);
}
