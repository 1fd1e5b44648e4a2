import { METADATA_KEYS } from '../metadata/metadata-keys';
import type { Icon, Meta } from '../protocol/wire.types';
import { recordingDecorator, type MemberDecorator } from './member-decorator';
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

/**
 * Exposes a method as a resource: a fixed URI (`resources/list`) or an RFC 6570 template
 * (`resources/templates/list`, matched on `resources/read`). The handler receives the template
 * variables as its first parameter (a plain object, or a DTO class that validates them).
 *
 * @example
 * @Resource('weather://stations/{id}', { mimeType: 'application/json', description: 'A station', list: 'stations' })
 * station({ id }: { id: string }) { return { id, name: `Station ${id}` }; }
 */
export function Resource(uri: string, options: ResourceOptions = {}): MemberDecorator {
  return recordingDecorator(METADATA_KEYS.resources, '@Resource', { ...options, uri });
}

/** What `@Resource` records: the options plus the URI or template. */
export interface ResourceRecord extends ResourceOptions {
  readonly uri: string;
}
