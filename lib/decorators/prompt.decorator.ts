import { METADATA_KEYS } from '../metadata/metadata-keys';
import { recordingDecorator, type MemberDecorator } from './member-decorator';
import type { PromptOptions } from '../metadata/prompt-options';

export type { PromptOptions };

/**
 * Exposes a method as a prompt. Its arguments are the properties of the argument DTO (name,
 * description from `@Field`, required unless `@IsOptional`); values arrive as strings and are
 * converted to the DTO's declared types before validation.
 *
 * @example
 * @Prompt({ description: 'Plan a trip' })
 * plan(args: PlanArgs) { return userText(`Plan a trip to ${args.city}`); }
 */
export function Prompt(options: PromptOptions = {}): MemberDecorator {
  return recordingDecorator(METADATA_KEYS.prompts, '@Prompt', options);
}
