import type { Icon, Meta } from '../core/wire.types';
import type { CacheHint } from './cache-hint';
import type { Constructor } from './metadata-store';
import type { CompletionSource } from './resource-options';

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
