import type { Icon, Meta } from '../core/wire.types';
import type { CacheHint } from './cache-hint';

/**
 * Where completion values come from: a fixed list (filtered by the typed prefix) or the name of a
 * method on the same class, called as `method(value, { arguments, ctx })` and returning strings.
 */
export type CompletionSource = readonly string[] | string;

/** Options of `@Resource`, kept exactly as written. */
export interface ResourceOptions {
  /** Defaults to the method name. */
  readonly name?: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
  /** Size in bytes of the raw content, if known (fixed resources). */
  readonly size?: number;
  readonly icons?: readonly Icon[];
  readonly _meta?: Meta;
  /**
   * For a template: the name of a method on the same class that returns the concrete resources
   * the template stands for (`{ uri, name?, title?, description?, mimeType?, size? }[]`); they are
   * listed by `resources/list`.
   */
  readonly list?: string;
  /** Caching hint for reads of this resource, and for lists that include it (stateless era). */
  readonly cache?: CacheHint;
  /** For a template: completion of its variables, by variable name. */
  readonly complete?: Readonly<Record<string, CompletionSource>>;
  /**
   * OAuth scopes a caller's token must grant to use this resource (all of them), added to those of
   * `@RequireScopes` on the class and the method. A call without them is refused with
   * `InsufficientScopeError` (-32003, `data.requiredScopes`; over HTTP a 403 `insufficient_scope`);
   * with `visible: scopesVisibility()` the resource is hidden from such callers instead.
   */
  readonly scopes?: readonly string[];
}


/** What `@Resource` records: the options plus the URI or template. */
export interface ResourceRecord extends ResourceOptions {
  readonly uri: string;
}
