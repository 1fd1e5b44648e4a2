import type { Definitions } from '../../lib/definitions/definitions';
import { scan } from '../../lib/definitions/scanner';
import { Registry } from '../../lib/router/registry';

type Provider = new () => object;

/** The definitions of decorated fixture classes, each built with `new` (no container). */
export function definitionsOf(...providers: Provider[]): Definitions {
  return scan({ providers, resolve: (cls) => new (cls as Provider)() });
}

/** A registry holding the definitions of `providers`. */
export function registryOf(...providers: Provider[]): Registry {
  const registry = new Registry();
  registry.add(definitionsOf(...providers));
  return registry;
}
