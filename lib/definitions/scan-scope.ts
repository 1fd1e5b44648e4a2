import { METADATA_KEYS } from '../metadata/metadata-keys';
import { readClassPipelineMembers, readClassScopes, type Constructor } from '../metadata/metadata-store';

/** One provider class being scanned, and where its problems go. */
export interface ScanScope {
  readonly cls: Constructor;
  readonly proto: object;
  /** Resolves the provider instance from the server's container. */
  readonly resolve: () => object;
  readonly problems: string[];
  /** What the class declares for every member it serves, read once for all of them. */
  readonly onClass: ClassDeclarations;
}

/** `@UseGuards`, `@UseInterceptors` and `@RequireScopes` on a class (its own, else its nearest ancestor's), as written. */
export interface ClassDeclarations {
  readonly guards: readonly unknown[];
  readonly interceptors: readonly unknown[];
  readonly scopes: readonly unknown[];
}

export function classDeclarations(cls: Constructor): ClassDeclarations {
  return {
    guards: readClassPipelineMembers(METADATA_KEYS.guards, cls),
    interceptors: readClassPipelineMembers(METADATA_KEYS.interceptors, cls),
    scopes: readClassScopes(cls),
  };
}

export function labelOf(scope: ScanScope, member: string): string {
  return `${scope.cls.name}#${member}`;
}

/** Runs `fn`, turning a thrown error into a problem, so one bad definition does not hide others. */
export function attempt<T>(problems: string[], label: string, fn: () => T): T | undefined {
  try {
    return fn();
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    problems.push(`${label}: ${detail}`);
    return undefined;
  }
}

/** Adds problems found in one definition's classes, each behind the definition's label. */
export function report(problems: string[], label: string, found: readonly string[]): void {
  for (const problem of found) problems.push(`${label}: ${problem}`);
}
