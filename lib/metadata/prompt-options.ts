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
  /**
   * OAuth scopes a caller's token must grant to use this prompt (all of them), added to those of
   * `@RequireScopes` on the class and the method. A call without them is refused with
   * `InsufficientScopeError` (-32003, `data.requiredScopes`; over HTTP a 403 `insufficient_scope`);
   * with `visible: scopesVisibility()` the prompt is hidden from such callers instead.
   */
  readonly scopes?: readonly string[];
}
