/**
 * A dependency loaded on first use rather than when the framework loads: for a package only some
 * servers need (jose for OAuth, yaml for Skills), so that a server without them starts without
 * paying for them (a fresh process's start-up is what serverless and scale-to-zero deployments
 * pay on every cold start). `load` is a `require` of the package, typed by a type-only import.
 *
 * @example
 * import type * as Yaml from 'yaml';
 * const yaml = lazyModule(() => require('yaml') as typeof Yaml);
 * yaml().parse(text);
 */
export function lazyModule<T>(load: () => T): () => T {
  let loaded: { readonly module: T } | undefined;
  return () => (loaded ??= { module: load() }).module;
}
