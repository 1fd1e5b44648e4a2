import type { CompletionSource } from '../metadata/resource-options';
import type { Completer, CompletionOutcome } from './definitions';

/** A completion method may return plain values or a full outcome. */
type CompletionReturn = readonly string[] | CompletionOutcome;

/**
 * Compiles the `complete` option of `@Resource`/`@Prompt` into completers, reporting names that
 * are not variables/arguments and methods the class does not have.
 */
export function compileCompleters(
  sources: Readonly<Record<string, CompletionSource>> | undefined,
  known: readonly string[],
  proto: object,
  resolve: () => object,
  problems: string[],
): Map<string, Completer> {
  const completers = new Map<string, Completer>();
  for (const [name, source] of Object.entries(sources ?? {})) {
    if (!known.includes(name)) {
      problems.push(`completion for "${name}", which is not one of [${known.join(', ')}]`);
      continue;
    }
    if (typeof source === 'string') {
      if (typeof (proto as Record<string, unknown>)[source] !== 'function') {
        problems.push(`completion method "${source}" for "${name}" does not exist on the class`);
        continue;
      }
      completers.set(name, methodCompleter(resolve, source));
    } else {
      completers.set(name, listCompleter(source));
    }
  }
  return completers;
}

function listCompleter(values: readonly string[]): Completer {
  const all = Object.freeze([...values]);
  return async (value) => {
    const prefix = value.toLowerCase();
    return { values: all.filter((candidate) => candidate.toLowerCase().startsWith(prefix)) };
  };
}

function methodCompleter(resolve: () => object, method: string): Completer {
  return async (value, args, ctx) => {
    const instance = resolve() as Record<string, (...params: unknown[]) => unknown>;
    const returned = (await instance[method](value, { arguments: args, ctx })) as CompletionReturn;
    return Array.isArray(returned) ? { values: returned as readonly string[] } : (returned as CompletionOutcome);
  };
}
