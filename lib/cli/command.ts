import type { Readable } from 'node:stream';
import type { ArgumentSpec, ParsedArguments } from './arguments';

/** Where a command reads and writes and from where it resolves paths: the process's, passed in. */
export interface CliIo {
  readonly cwd: string;
  /** The environment (HOME, APPDATA, XDG_CONFIG_HOME, CODEX_HOME ...): where per-user files are. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The operating system (`process.platform`): where per-user files are on it. */
  readonly platform: NodeJS.Platform;
  /** stdin: over stdio, the client's MCP pipe. */
  readonly input: Readable;
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
}

/** One `phantom-mcp <name>` command: its usage, what it accepts, and what it does. */
export interface Command extends ArgumentSpec {
  readonly name: string;
  /** One line, for the bare binary's usage. */
  readonly summary: string;
  /** The whole `--help` text. */
  readonly usage: string;
  /** Resolves with the process's exit code. */
  run(args: ParsedArguments, io: CliIo): Promise<number>;
}

/** The command refuses, and says why in one message: exit 1 with the message alone (no stack). */
export class CommandError extends Error {
  override readonly name = 'CommandError';
}

/** Exit codes: 1 for a failure (a broken module, an error result), 2 for bad usage. */
export const EXIT = Object.freeze({ ok: 0, failed: 1, usage: 2 } as const);
