import type { Registry, ResolvedResource } from './registry';

/** One thing a client may or may not see. */
export type VisibleItem =
  | { readonly kind: 'tool'; readonly name: string }
  | { readonly kind: 'prompt'; readonly name: string }
  | { readonly kind: 'resource'; readonly uri: string }
  | { readonly kind: 'template'; readonly uriTemplate: string };

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

/**
 * The resource `uri` names, if `principal` may know it: it resolves, and it is visible as the URI
 * and, when read through a template, as its template. The one rule for reading, subscribing and
 * receiving updates: a resource this gives nothing for answers as unknown everywhere.
 */
export function visibleResource(registry: Registry, visible: Visibility, uri: string, principal: unknown): ResolvedResource | undefined {
  const resolved = registry.resolveResource(uri);
  if (!resolved || !visible({ kind: 'resource', uri }, principal)) return undefined;
  const { definition } = resolved;
  return definition.kind === 'resource' || visible({ kind: 'template', uriTemplate: definition.uriTemplate.source }, principal) ? resolved : undefined;
}
