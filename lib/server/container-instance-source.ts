import { Lifecycle, type DependencyContainer, type InjectionToken } from 'tsyringe';
import type { Constructor } from '../metadata/metadata-store';
import type { InstanceSource } from '../definitions/instance-source';
import { wiringProblems } from '../definitions/provider-wiring.check';

/**
 * The default source: the server's tsyringe child container. Its start-up check reads the
 * constructors (nothing is built: instances are made on first call), and a provider it accepts is
 * registered container-scoped, so each is a singleton of this server.
 */
export class ContainerInstanceSource implements InstanceSource {
  constructor(private readonly container: DependencyContainer) {}

  readonly resolve = (cls: Constructor): object => this.container.resolve(cls) as object;

  readonly isRegistered = (token: unknown): boolean => this.container.isRegistered(token as InjectionToken, true);

  readonly problems = (classes: readonly Constructor[]): string[] => wiringProblems({ classes, isRegistered: this.isRegistered });

  /** Registers accepted providers the container does not know, so each is built once, here. */
  adopt(classes: readonly Constructor[]): void {
    for (const cls of classes) this.container.register(cls, { useClass: cls }, { lifecycle: Lifecycle.ContainerScoped });
  }
}
