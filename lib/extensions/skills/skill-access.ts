import { missingScopes } from '../../core/auth-info';
import { InsufficientScopeError } from '../../core/errors';
import type { ExtensionHost } from '../../router/extensions/extension';
import type { CatalogSkill } from './skill-model';

/**
 * Who may know and use which skill: the server's `visible` rule decides whether a caller knows a
 * skill at all (hidden means unknown, for every method), and a skill's scopes whether a caller
 * who knows it may get or read it.
 */
export class SkillAccess {
  constructor(private readonly host: Pick<ExtensionHost, 'isVisible'>) {}

  /** Whether `principal` may know `skill` (the server's `visible` rule). */
  visible(skill: CatalogSkill, principal: unknown): boolean {
    const item = skill.scopes.length > 0
      ? { kind: 'skill' as const, name: skill.name, uri: skill.uri, scopes: skill.scopes }
      : { kind: 'skill' as const, name: skill.name, uri: skill.uri };
    return this.host.isVisible(item, principal);
  }

  /** Throws `InsufficientScopeError` when `principal` lacks one of the skill's scopes. */
  authorize(skill: CatalogSkill, principal: unknown): void {
    const missing = missingScopes(principal, skill.scopes);
    if (missing.length > 0) throw new InsufficientScopeError(skill.scopes, missing, `the skill ${skill.name}`);
  }
}
