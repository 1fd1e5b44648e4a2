import { dirname, join } from 'node:path';
import { injectable } from 'tsyringe';
import { DESIGN_KEYS, TSYRINGE_KEYS } from '../metadata/metadata-keys';

/**
 * How tsyringe will build a class from its constructor, read without building it:
 * - `params`: it resolves these, in order (a type from `design:paramtypes`, or what `@inject` recorded);
 * - `no-params`: it calls `new cls()`;
 * - `not-injectable`: it throws "TypeInfo not known" (constructor parameters, no `@injectable()`
 *   known to this copy of tsyringe); `decorated` when the class carries decorator metadata anyway;
 * - `no-metadata`: `@injectable()` saw no parameter types (the build dropped decorator metadata).
 */
export type ConstructorPlan =
  | { readonly kind: 'params'; readonly params: readonly unknown[] }
  | { readonly kind: 'no-params' }
  | { readonly kind: 'not-injectable'; readonly decorated: boolean }
  | { readonly kind: 'no-metadata' };

type TypeInfo = ReadonlyMap<Function, readonly unknown[]>;

/**
 * What `@injectable()` recorded, per class. tsyringe keeps it in a module-level map that its index
 * does not export, and it is the only trace `@injectable()` leaves: reading it is how a class
 * decorated by another copy of tsyringe (whose map ours never sees) can be told apart. This file is
 * the only one that reaches into tsyringe; if its layout changes, plans come from decorator
 * metadata alone and that one diagnosis is lost.
 */
const typeInfo: TypeInfo | undefined = loadTypeInfo();

export function constructorPlan(cls: Function): ConstructorPlan {
  const recorded = typeInfo ? typeInfo.get(cls) : paramInfoOf(cls);
  if (recorded && recorded.length > 0) return { kind: 'params', params: recorded };
  if (cls.length === 0) return { kind: 'no-params' };
  if (recorded) return { kind: 'no-metadata' };
  return { kind: 'not-injectable', decorated: Reflect.getMetadata(DESIGN_KEYS.paramTypes, cls) !== undefined };
}

/** What tsyringe's `@injectable()` stores: the parameter types, with `@inject` tokens in their places. */
function paramInfoOf(cls: Function): unknown[] | undefined {
  const types: unknown[] | undefined = Reflect.getMetadata(DESIGN_KEYS.paramTypes, cls);
  if (!types) return undefined;
  const tokens: Record<string, unknown> = Reflect.getOwnMetadata(TSYRINGE_KEYS.injectionTokens, cls) ?? {};
  const params = [...types];
  for (const [index, token] of Object.entries(tokens)) params[Number(index)] = token;
  return params;
}

function loadTypeInfo(): TypeInfo | undefined {
  try {
    // The copy our own `import 'tsyringe'` loaded: resolved from here, like that import.
    const internals = require(join(dirname(require.resolve('tsyringe')), 'dependency-container.js')) as { typeInfo?: unknown };
    const map = internals.typeInfo;
    if (!(map instanceof Map)) return undefined;
    // Trust the map only if our `@injectable()` writes to it (a bundler may have loaded another build).
    class Probe { constructor(readonly probe: unknown) {} }
    injectable()(Probe);
    const ours = map.has(Probe);
    map.delete(Probe);
    return ours ? (map as TypeInfo) : undefined;
  } catch {
    return undefined;
  }
}
