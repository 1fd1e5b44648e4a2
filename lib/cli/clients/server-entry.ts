import type { EnvironmentVariable } from '../../index';

/**
 * What an installer does with one declared environment variable, whatever the client:
 * - `value`: write it (a variable that is not secret and has a default: the default, there to edit);
 * - `ask`: the client supplies it at start-up (a required variable with no value to write, a
 *   secret never has one): a prompt, a reference to the client's own environment, or, where the
 *   client has neither, a line telling the user to add it;
 * - `skip`: leave it out (optional, no default: the server does without), and say so.
 *
 * A secret's value is never written: phantom-mcp never reads it.
 */
export type VariablePlan =
  | { readonly kind: 'value'; readonly variable: EnvironmentVariable; readonly value: string }
  | { readonly kind: 'ask'; readonly variable: EnvironmentVariable }
  | { readonly kind: 'skip'; readonly variable: EnvironmentVariable };

/** The server run by the client over stdio: a command, its arguments, and what to do with each declared variable. */
export interface StdioEntry {
  readonly transport: 'stdio';
  readonly command: string;
  readonly args: readonly string[];
  readonly environment: readonly VariablePlan[];
}

/** The server reached by the client over Streamable HTTP at a URL (its environment is the host's business). */
export interface HttpEntry {
  readonly transport: 'http';
  readonly url: string;
}

/** One server, as every client's entry is written from. */
export type ServerEntry = StdioEntry | HttpEntry;

/** What runs the module over stdio: this node and this package's binary, both absolute. */
export interface Runtime {
  /** The node executable (`process.execPath`). */
  readonly node: string;
  /** This package's `main.js`. */
  readonly cli: string;
}

/**
 * The stdio entry for a module: `<node> <main.js> serve <module> [--export <name>]`, all paths
 * absolute, since clients start servers from their own working directory and, launched from a
 * desktop, often without the shell's PATH.
 */
export function stdioEntry(module: string, exportName: string | undefined, environment: readonly EnvironmentVariable[], runtime: Runtime): StdioEntry {
  return {
    transport: 'stdio',
    command: runtime.node,
    args: [runtime.cli, 'serve', module, ...(exportName === undefined ? [] : ['--export', exportName])],
    environment: environment.map(planOf),
  };
}

/** The plan for one variable (see {@link VariablePlan}). */
export function planOf(variable: EnvironmentVariable): VariablePlan {
  if (!variable.secret && variable.default !== undefined) return { kind: 'value', variable, value: variable.default };
  if (variable.required) return { kind: 'ask', variable };
  return { kind: 'skip', variable };
}
