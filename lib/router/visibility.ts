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
