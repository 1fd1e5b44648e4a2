import type { Diagnostics } from '../../core/diagnostics';
import type { Implementation } from '../../core/wire.types';
import type { ListChangeListener, Registry } from '../../router/registry';
import type { Router } from '../../router/router';
import type { VisibleItem } from '../../router/visibility';

/**
 * What the protocol layer serves and reports to, handed in by the composition root: the compiled
 * router and registry, the server's identity, where failures go. The protocol layer never holds
 * the server itself.
 */
export interface ServedApplication {
  readonly router: Router;
  readonly registry: Registry;
  readonly info: Implementation;
  readonly instructions: string | undefined;
  readonly diagnostics: Diagnostics;
  /** True when what a caller sees depends on who it is (a `visible` rule is set). */
  readonly filtersByPrincipal: boolean;
  /** Whether `principal` may see and use `item`. */
  canSee(item: VisibleItem, principal: unknown): boolean;
  /** Called after each runtime change to a list. */
  onListChanged(listener: ListChangeListener): () => void;
}
