import { SCOPE_TOKEN } from '../core/auth-info';
import { readMethodScopes } from '../metadata/metadata-store';
import type { ScanScope } from './scan-scope';

const NO_SCOPES: readonly string[] = Object.freeze([]);

/**
 * The scopes one target requires: `@RequireScopes` of its class, then of its method, then its
 * options' `scopes`, each once. A scope that is not an RFC 6749 scope token (it could not be
 * granted, nor named in a challenge) is reported under the target's label.
 */
export function scanScopes(scope: ScanScope, member: string, label: string, declared: readonly unknown[] | undefined): readonly string[] {
  const all = [...scope.onClass.scopes, ...readMethodScopes(scope.cls, member), ...(declared ?? [])];
  if (all.length === 0) return NO_SCOPES;
  for (const value of all) {
    if (typeof value !== 'string' || !SCOPE_TOKEN.test(value)) {
      scope.problems.push(`${label}: ${JSON.stringify(value)} is not a scope (printable ASCII without space, " or \\)`);
    }
  }
  return Object.freeze([...new Set(all.filter((value): value is string => typeof value === 'string'))]);
}
