import type { Constructor } from '../../metadata/metadata-store';
import { checkArguments, oversizeArrays, type SchemaCheck, type Validated } from '../../schema';

/**
 * Turns what the client sent into what the handler receives, or says what is wrong with it. One
 * per target, compiled once; the default pipe is validation against the target's argument class
 * (or its hand-written `inputSchema`). A target with nothing to check has no pipe at all.
 */
export type ArgumentPipe = (args: Readonly<Record<string, unknown>>) => Validated<unknown> | Promise<Validated<unknown>>;

/**
 * Validates into an instance of `cls`; `coerce` converts strings to the declared types (prompt
 * arguments and template variables arrive as strings); no array may hold more than `maxArrayItems`.
 */
export function classPipe(cls: Constructor, coerce: boolean, maxArrayItems?: number): ArgumentPipe {
  const options = { coerce, maxArrayItems };
  return (args) => checkArguments(cls, args, options);
}

/** Checks against a compiled JSON Schema; the handler gets the arguments as sent. */
export function schemaPipe(check: SchemaCheck, maxArrayItems = Infinity): ArgumentPipe {
  return (args) => {
    const oversize = oversizeArrays(args, maxArrayItems);
    const issues = oversize.length > 0 ? [...oversize] : check(args);
    return issues.length > 0 ? { ok: false, issues } : { ok: true, value: args };
  };
}
