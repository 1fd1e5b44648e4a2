import { METADATA_KEYS } from '../metadata/metadata-keys';
import type { ElicitOptions } from '../metadata/elicit-options';
import { writeClassOptions } from '../metadata/metadata-store';
import { buildForm, buildUrl } from '../schema/elicitation.builder';

export type { FormElicitation, FormProperty, UrlElicitation } from '../schema/form-elicitation';
export { toElicitParams } from '../schema/elicitation.builder';
export { formFromClass } from '../schema/form-schema.compiler';
export type { ElicitOptions } from '../metadata/elicit-options';

/**
 * Declares a class as an elicitation form: each property (described by `@Field`, constrained by
 * class-validator) becomes one field of the form, and an accepted answer comes back as a
 * validated instance. Properties a form cannot carry (nested objects, lists of free values) are
 * reported at start-up with every other definition problem. Only records its options.
 *
 * For forms built at run time, or URL-mode elicitations, use `Elicit.form(...)` (alias
 * `Elicit.build`) and `Elicit.url(...)`.
 *
 * @example
 * @Elicit({ message: 'What is your info?' })
 * class Info {
 *   @Field({ title: 'Your name' }) @IsString() name!: string;
 *   @Field({ title: 'Email' }) @IsEmail() email!: string;
 *   @Field({ title: 'Role', oneOf: { dev: 'Developer', pm: 'Product Manager' } }) @IsIn(['dev', 'pm']) role!: string;
 * }
 * // in a tool: const answer = await ctx.elicit(Info);
 *
 * @example
 * const login = Elicit.url({ message: 'Please sign in', url: `https://example.com/oauth?id=${id}`, elicitationId: id });
 */
export function Elicit(options: ElicitOptions): ClassDecorator {
  // Checked by formClassProblems with the rest of the definitions, so start-up lists it with them.
  return (target) => writeClassOptions(METADATA_KEYS.elicit, target, options);
}

// Declaration merging: `Elicit` is both the decorator and the home of the builders.
export namespace Elicit {
  /** Builds a form elicitation from a list of properties; see `buildForm`. */
  export const form = buildForm;
  /** The seed's name for `form`. */
  export const build = buildForm;
  /** Builds a URL elicitation; see `buildUrl`. */
  export const url = buildUrl;
}
