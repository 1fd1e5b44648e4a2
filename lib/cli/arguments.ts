/** What a flag takes: nothing (a switch) or a value (`--port 3000` or `--port=3000`). */
export type FlagKind = 'switch' | 'value';

/** What a command accepts: its positional arguments by name (all required) and its flags. */
export interface ArgumentSpec {
  readonly positionals: readonly string[];
  readonly flags: Readonly<Record<string, FlagKind>>;
}

/** What a command was given: its positional arguments by name, and its flags. */
export interface ParsedArguments {
  readonly positionals: Readonly<Record<string, string>>;
  /** A switch is `true` when given; a value flag holds its (last) value. */
  readonly flags: Readonly<Record<string, string | true>>;
}

/** The command line does not match the command's usage: exit 2, with the usage. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/**
 * Reads `argv` against a command's positionals and flags: `--flag value` and `--flag=value` for
 * value flags, `--` ends the flags. Anything unknown, missing or extra is a `UsageError`.
 */
export function parseArguments(command: ArgumentSpec, argv: readonly string[]): ParsedArguments {
  const flags: Record<string, string | true> = {};
  const positionals: string[] = [];
  for (let at = 0; at < argv.length; at++) {
    const word = argv[at];
    if (word === '--') {
      positionals.push(...argv.slice(at + 1));
      break;
    }
    if (!word.startsWith('--')) {
      positionals.push(word);
      continue;
    }
    const [name, inline] = splitOnce(word.slice(2), '=');
    const kind = command.flags[name];
    if (kind === undefined) throw new UsageError(`unknown flag --${name}`);
    if (kind === 'switch') {
      if (inline !== undefined) throw new UsageError(`--${name} takes no value`);
      flags[name] = true;
      continue;
    }
    const value = inline ?? argv[++at];
    if (value === undefined) throw new UsageError(`--${name} needs a value`);
    flags[name] = value;
  }
  if (positionals.length < command.positionals.length) throw new UsageError(`missing <${command.positionals[positionals.length]}>`);
  if (positionals.length > command.positionals.length) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[command.positionals.length])}`);
  return { positionals: Object.fromEntries(command.positionals.map((name, at) => [name, positionals[at]])), flags };
}

/** A value flag's value, if given. */
export function valueFlag(args: ParsedArguments, name: string): string | undefined {
  const value = args.flags[name];
  return typeof value === 'string' ? value : undefined;
}

/** A TCP port (0 picks a free one), or a `UsageError`. */
export function portFlag(args: ParsedArguments, fallback: number): number {
  const text = valueFlag(args, 'port');
  if (text === undefined) return fallback;
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65535) throw new UsageError(`--port must be a whole number from 0 to 65535; got ${JSON.stringify(text)}`);
  return port;
}

function splitOnce(text: string, separator: string): [string, string | undefined] {
  const at = text.indexOf(separator);
  return at === -1 ? [text, undefined] : [text.slice(0, at), text.slice(at + 1)];
}
