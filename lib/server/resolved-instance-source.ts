import { PhantomError } from '../core/errors';
import type { Constructor } from '../metadata/metadata-store';
import type { InstanceSource } from '../definitions/instance-source';

/** The `resolve` option: gives the instance of a class from another DI container (a Nest `ModuleRef`, a Map). */
export type Resolve = (cls: Constructor) => unknown;

/**
 * Instances from another DI container, which owns their wiring, so tsyringe checks nothing. Its
 * start-up check asks for each class once, at once, so a class the other container does not hold
 * fails when the server is made rather than on the first call; what it gives is kept, one
 * instance per class for the server's life, whatever scope the other container gave it.
 */
export class ResolvedInstanceSource implements InstanceSource {
  private readonly instances = new Map<Function, object>();

  constructor(private readonly resolveFrom: Resolve) {}

  readonly resolve = (cls: Constructor): object => {
    const instance = this.instances.get(cls) ?? this.fetch(cls);
    if (typeof instance === 'string') throw new PhantomError('resolve_failed', `${nameOf(cls)}: ${instance}`);
    return instance;
  };

  /** Nothing is built from its constructor here: every class goes to the other container. */
  readonly isRegistered = (): boolean => false;

  readonly problems = (classes: readonly Constructor[]): string[] => classes.flatMap((cls) => {
    const instance = this.instances.get(cls) ?? this.fetch(cls);
    return typeof instance === 'string' ? [`${nameOf(cls)}: ${instance}`] : [];
  });

  /** Nothing to register: the other container already holds them (the check asked it). */
  adopt(): void {}

  /** Asks the other container once; keeps the instance, or says what is wrong with the answer. */
  private fetch(cls: Constructor): object | string {
    let instance: unknown;
    try {
      instance = this.resolveFrom(cls);
    } catch (error) {
      return `the resolve option threw: ${error instanceof Error ? error.message : String(error)}`;
    }
    if (!(instance instanceof (cls as Function))) {
      const got = instance === null || typeof instance !== 'object' ? String(instance) : `an object that is not a ${nameOf(cls)} (${nameOf(instance.constructor)})`;
      return `the resolve option gave ${got}; the container behind it must supply an instance of every provider, `
        + 'guard and interceptor class the server is given (register the class there; a guard or interceptor may be given as an instance instead)';
    }
    this.instances.set(cls, instance);
    return instance;
  }
}

function nameOf(cls: Function | undefined): string {
  return cls?.name || '(anonymous class)';
}
