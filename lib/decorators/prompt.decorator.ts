import { METADATA_KEYS } from '../metadata/metadata-keys';
import type { Constructor } from '../metadata/metadata-store';
import type { Icon, Meta } from '../protocol/wire.types';
import type { CompletionSource } from './resource.decorator';
import { recordingDecorator, type MemberDecorator } from './member-decorator';
import type { CacheHint } from './cache-hint';

/** Options of `@Prompt`, kept exactly as written. */
export interface PromptOptions {
  /** Defaults to the method name. */
  readonly name?: string;
  readonly title?: string;
  readonly description?: string;
  readonly icons?: readonly Icon[];
  readonly _meta?: Meta;
  /** The argument DTO, when the method's first parameter type cannot say. */
  readonly input?: Constructor;
  /** Caching hint for lists that include this prompt (stateless era). */
  readonly cache?: CacheHint;
  /** Completion of argument values, by argument name. */
  readonly complete?: Readonly<Record<string, CompletionSource>>;
}

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
