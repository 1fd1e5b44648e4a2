import type { CacheHint } from '../../metadata/cache-hint';
import type { HintedList, Registry } from '../../router/registry';
import { Method } from '../../core/methods';
import { shallowCopy } from '../../core/shallow-copy';
import type { Implementation, JsonObject } from '../../core/wire.types';
import { MetaKey } from './request-meta';

/** Where the decorators' caching hints are looked up (the registry). */
export type CacheHints = Pick<Registry, 'listCacheHint' | 'hasListers' | 'resolveResource'>;

/** Server-wide caching defaults, before what the decorators say. */
export interface CacheDefaults {
  readonly lists: Required<CacheHint>;
  readonly reads: Required<CacheHint>;
  readonly discover: Required<CacheHint>;
  /** Lists differ by caller (a visibility rule is set): they can only be `private`. */
  readonly listsArePrivate: boolean;
}

const LIST_OF: Readonly<Partial<Record<string, HintedList>>> = Object.freeze({
  [Method.ToolsList]: 'tools',
  [Method.PromptsList]: 'prompts',
  [Method.ResourcesList]: 'resources',
  [Method.ResourcesTemplatesList]: 'templates',
});

/**
 * Dresses a result for the stateless era: `resultType`, the server's identity in `_meta`, and
 * caching hints on list, read and discover results.
 */
export class ResultDecorator {
  private readonly serverMeta: JsonObject;

  constructor(
    private readonly registry: CacheHints,
    info: Implementation,
    private readonly defaults: CacheDefaults,
    private readonly methodHint: (method: string) => CacheHint | undefined = () => undefined,
  ) {
    this.serverMeta = Object.freeze({ [MetaKey.serverInfo]: Object.freeze({ name: info.name, version: info.version }) });
  }

  decorate(method: string, result: JsonObject, params: JsonObject | undefined): JsonObject {
    const decorated = shallowCopy(result);
    decorated.resultType = (result.resultType as string | undefined) ?? 'complete';
    decorated._meta = this.meta(result._meta);
    const hint = this.hintFor(method, params);
    // A result that states its own caching (an extension's) keeps it.
    if (hint && decorated.ttlMs === undefined) {
      decorated.ttlMs = hint.ttlMs;
      decorated.cacheScope = hint.scope;
    }
    return decorated;
  }

  /** Dresses an extension method's result: its own `ttlMs` and `cacheScope` kept, the method's hint otherwise. */
  private extensionHint(method: string): Required<CacheHint> | undefined {
    const hint = this.methodHint(method);
    return hint && { ttlMs: Math.max(0, Math.floor(hint.ttlMs ?? 0)), scope: hint.scope ?? 'private' };
  }

  /** `_meta` for any stateless result: what the result had, plus the server's identity. */
  meta(own?: unknown): JsonObject {
    return typeof own === 'object' && own !== null ? Object.assign(shallowCopy(own as JsonObject), this.serverMeta) : this.serverMeta;
  }

  get discoverHint(): Required<CacheHint> {
    return this.defaults.discover;
  }

  private hintFor(method: string, params: JsonObject | undefined): Required<CacheHint> | undefined {
    const list = LIST_OF[method];
    if (list) {
      const hint = merge(this.defaults.lists, this.registry.listCacheHint(list));
      // Listers run per request with the caller's context: what they name may be the caller's own.
      const perCaller = this.defaults.listsArePrivate || (list === 'resources' && this.registry.hasListers);
      return perCaller ? { ...hint, scope: 'private' } : hint;
    }
    if (method === Method.ResourcesRead && typeof params?.uri === 'string') {
      return merge(this.defaults.reads, this.registry.resolveResource(params.uri)?.definition.cache);
    }
    return this.extensionHint(method);
  }
}

function merge(base: Required<CacheHint>, over: CacheHint | undefined): Required<CacheHint> {
  return { ttlMs: Math.max(0, Math.floor(over?.ttlMs ?? base.ttlMs)), scope: over?.scope ?? base.scope };
}
