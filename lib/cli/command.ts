import type { Readable } from 'node:stream';
import type { ArgumentSpec, ParsedArguments } from './arguments';

/** Where a command reads and writes and from where it resolves paths: the process's, passed in. */
export interface CliIo {
  readonly cwd: string;
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

/** Exit codes: 1 for a failure (a broken module, an error result), 2 for bad usage. */
export const EXIT = Object.freeze({ ok: 0, failed: 1, usage: 2 } as const);
