import type { Constructor } from '../metadata/metadata-store';
import { validateArguments } from './argument-validator';
import type { Validated } from './json-schema.types';
import { compileClassSchema } from './class-schema.compiler';
import { compileSchemaCheck } from './json-schema.validator';
import { issuePath } from './validation-issues.formatter';

/** Checks a tool's `structuredContent` against its output DTO: one line per problem, `[]` when it conforms. */
export type OutputCheck = (structured: unknown) => Promise<string[]>;

/**
 * Compiles the check of a tool's structured result against `@Tool({ output })`, once. Two views
 * of one source: the advertised schema, applied to the JSON the client will receive (so every
 * `additionalProperties: false`, type and `required` the client checks is checked here first),
 * and the DTO's class-validator rules, applied to the value as returned (rules no schema keyword
 * can say). A result without structured content fails too: the spec requires it of a tool that
 * declares an output schema, and the official client rejects its absence.
 *
 * @example
 * const check = compileOutputCheck(Weather);
 * await check({ temperature: 'hot', extra: 1 }); // ['temperature: must be a number ...', 'extra: is not allowed']
 */
export function compileOutputCheck(cls: Constructor): OutputCheck {
  return compileOutputCheckWith(cls, validateArguments);
}

/**
 * `compileOutputCheck` with the validator of the DTO's rules given: the argument validator in
 * production; a spec compares it with the full class-transformer + class-validator path.
 * Not part of the public surface.
 */
export function compileOutputCheckWith(cls: Constructor, validate: (cls: Constructor, value: unknown) => Promise<Validated<unknown>>): OutputCheck {
  const conforms = compileSchemaCheck(compileClassSchema(cls), 'structuredContent');
  return async (structured) => {
    if (structured === undefined) return ['structuredContent: is missing (a tool with an output schema must return an object)'];
    let wire: unknown;
    try {
      wire = JSON.parse(JSON.stringify(structured));
    } catch (error) {
      return [`structuredContent: is not JSON (${error instanceof Error ? error.message : String(error)})`];
    }
    const checked = await validate(cls, structured);
    const byRules = checked.ok ? [] : checked.issues;
    const reported = new Set(byRules.map(issuePath));
    return [...byRules, ...conforms(wire).filter((line) => !reported.has(issuePath(line)))];
  };
}
