import { missingScopes } from '../core/auth-info';
import type { PromptDefinition, TemplateResourceDefinition, ToolDefinition } from '../definitions/definitions';
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
  | ({ readonly kind: 'template'; readonly uriTemplate: string } & ItemScopes)
  /** A skill of the Skills extension (`io.modelcontextprotocol/skills`): its name, and the URI of its `SKILL.md`. */
  | ({ readonly kind: 'skill'; readonly name: string; readonly uri: string } & ItemScopes);

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
 * The one answer to "does this item exist, and may this caller know it?", for every place that
 * asks: lists, calls, reads, completions, subscriptions and resource updates, tasks, and the
 * stateless era's header check. Each lookup gives the item when it exists and the server's
 * `visible` rule allows it to `principal`, and `undefined` otherwise: hidden means unknown
 * everywhere. Built once per server from its registry and its rule; without a rule, a lookup is
 * the registry's and asks nothing more (no item is built per call).
 */
export class VisibilityResolver {
  /** Whether a rule is set: only then may two callers see different items (lists are private then). */
  readonly differsByCaller: boolean;

  constructor(private readonly registry: Registry, private readonly rule: Visibility = EVERYTHING_VISIBLE) {
    this.differsByCaller = rule !== EVERYTHING_VISIBLE;
  }

  tool(name: string, principal: unknown): ToolDefinition | undefined {
    const tool = this.registry.tool(name);
    if (!tool || !this.differsByCaller) return tool;
    return this.rule({ kind: 'tool', name, ...itemScopes(tool) }, principal) ? tool : undefined;
  }

  prompt(name: string, principal: unknown): PromptDefinition | undefined {
    const prompt = this.registry.prompt(name);
    if (!prompt || !this.differsByCaller) return prompt;
    return this.rule({ kind: 'prompt', name, ...itemScopes(prompt) }, principal) ? prompt : undefined;
  }

  /** The template whose source is `uriTemplate` (as `resources/templates/list` names it). */
  template(uriTemplate: string, principal: unknown): TemplateResourceDefinition | undefined {
    const template = this.registry.template(uriTemplate);
    if (!template || !this.differsByCaller) return template;
    return this.rule({ kind: 'template', uriTemplate, ...itemScopes(template) }, principal) ? template : undefined;
  }

  /**
   * What serves the resource `uri`, with its template's variables: when it resolves, and it is
   * visible as the URI and, when read through a template, as that template (a hidden template
   * hides every URI it serves).
   */
  resource(uri: string, principal: unknown): ResolvedResource | undefined {
    const resolved = this.registry.resolveResource(uri);
    if (!resolved) return undefined;
    const { definition } = resolved;
    if (definition.kind === 'template' && definition.knows && !definition.knows(uri, resolved.params, principal)) return undefined;
    if (!this.differsByCaller) return resolved;
    if (!this.rule({ kind: 'resource', uri, ...itemScopes(definition) }, principal)) return undefined;
    return definition.kind === 'resource' || this.rule({ kind: 'template', uriTemplate: definition.uriTemplate.source, ...itemScopes(definition) }, principal) ? resolved : undefined;
  }

  /** Whether the server's `visible` rule lets `principal` know `item` (an extension's own items: a skill). */
  allows(item: VisibleItem, principal: unknown): boolean {
    return !this.differsByCaller || this.rule(item, principal);
  }

  /** The `items` of a list that `principal` may know, by `known` (one of the lookups above); the list itself without a rule. */
  filter<T>(items: readonly T[], principal: unknown, known: (item: T, principal: unknown) => unknown): readonly T[] {
    return this.differsByCaller ? items.filter((item) => known(item, principal) !== undefined) : items;
  }

}
