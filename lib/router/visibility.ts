import { missingScopes } from '../core/auth-info';
import type { Registry, ResolvedResource } from './registry';

/**
 * What every item says besides its name: the OAuth scopes a call to it needs (`@RequireScopes`,
 * the `scopes` option), when it declares any. The router always says; a rule may read it.
 */
export interface ItemScopes {
  readonly scopes?: readonly string[];
}

/** One thing a client may or may not see. */
export type VisibleItem =
  | ({ readonly kind: 'tool'; readonly name: string } & ItemScopes)
  | ({ readonly kind: 'prompt'; readonly name: string } & ItemScopes)
  | ({ readonly kind: 'resource'; readonly uri: string } & ItemScopes)
  | ({ readonly kind: 'template'; readonly uriTemplate: string } & ItemScopes);

/**
 * Decides, per request, whether the caller (its principal from the authentication hook) may see
 * and use an item. Hidden items are left out of lists, and calls to them are answered exactly as
 * calls to items that do not exist.
 *
 * @example
 * visible: (item, principal) => item.kind !== 'tool' || !item.name.startsWith('admin_') || isAdmin(principal)
 */
export type Visibility = (item: VisibleItem, principal: unknown) => boolean;

export const EVERYTHING_VISIBLE: Visibility = () => true;

const UNSCOPED: ItemScopes = Object.freeze({});

/** The `scopes` part of an item: present only when the definition declares some. */
export function itemScopes(definition: { readonly scopes: readonly string[] } | undefined): ItemScopes {
  return definition && definition.scopes.length > 0 ? { scopes: definition.scopes } : UNSCOPED;
}

/**
 * A `visible` rule that hides what a caller's scopes cannot use: an item whose declared scopes the
 * principal does not all grant is left out of its lists, and calls to it are answered as unknown
 * (hidden means unknown everywhere). Without it (the default), such items are listed and a call
 * is refused with `InsufficientScopeError`, which over HTTP tells the client which scopes to ask
 * for (a step-up); choose this rule when callers should not learn what they cannot use. `and`,
 * when given, must also allow the item.
 *
 * @example
 * new PhantomServer({ name: 'notes', version: '1.0.0', providers: [NotesTools], visible: scopesVisibility() });
 */
export function scopesVisibility(and: Visibility = EVERYTHING_VISIBLE): Visibility {
  return (item, principal) => missingScopes(principal, item.scopes ?? []).length === 0 && and(item, principal);
}

/**
 * The resource `uri` names, if `principal` may know it: it resolves, and it is visible as the URI
 * and, when read through a template, as its template. The one rule for reading, subscribing and
 * receiving updates: a resource this gives nothing for answers as unknown everywhere.
 */
export function visibleResource(registry: Registry, visible: Visibility, uri: string, principal: unknown): ResolvedResource | undefined {
  const resolved = registry.resolveResource(uri);
  if (!resolved) return undefined;
  const { definition } = resolved;
  if (!visible({ kind: 'resource', uri, ...itemScopes(definition) }, principal)) return undefined;
  return definition.kind === 'resource' || visible({ kind: 'template', uriTemplate: definition.uriTemplate.source, ...itemScopes(definition) }, principal) ? resolved : undefined;
}
