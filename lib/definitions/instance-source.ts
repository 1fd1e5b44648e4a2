import type { Constructor } from '../metadata/metadata-store';

/**
 * Where a server gets the one instance of each provider, guard and interceptor class, and how it
 * checks at start-up that it can: its own tsyringe child container by default, or another DI
 * container through the `resolve` option.
 */
export interface InstanceSource {
  /** The instance of `cls`: the same one every time it is asked for. */
  readonly resolve: (cls: Constructor) => object;
  /** Whether `token` is registered as it is, so that it is not built from its own constructor here. */
  readonly isRegistered: (token: unknown) => boolean;
  /** What stops this source from giving an instance of each class, one line per problem; none when it can. */
  readonly problems: (classes: readonly Constructor[]) => string[];
  /** Takes the providers the server accepted (after their check), to make their instances when asked. */
  adopt(classes: readonly Constructor[]): void;
}
