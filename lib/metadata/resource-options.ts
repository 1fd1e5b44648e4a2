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
}


/** What `@Resource` records: the options plus the URI or template. */
export interface ResourceRecord extends ResourceOptions {
  readonly uri: string;
}
