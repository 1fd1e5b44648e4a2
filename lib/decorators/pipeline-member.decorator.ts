import type { METADATA_KEYS } from '../metadata/metadata-keys';
import { prependPipelineMembers, recordMisplaced } from '../metadata/metadata-store';

/** What `@UseGuards` and `@UseInterceptors` return: a decorator for a class or for one of its methods. */
export type ClassOrMethodDecorator = (target: object, propertyKey?: string | symbol, descriptor?: PropertyDescriptor) => void;

type PipelineKey = typeof METADATA_KEYS.guards | typeof METADATA_KEYS.interceptors;

/**
 * Builds a decorator that records pipeline members on the class it decorates, or on the method;
 * nothing else (the scanner checks what was named, and the router resolves and runs it).
 */
export function pipelineMemberDecorator(key: PipelineKey, label: string, members: readonly unknown[]): ClassOrMethodDecorator {
  const frozen = Object.freeze([...members]);
  return (target, propertyKey, descriptor) => {
    if (propertyKey === undefined) {
      prependPipelineMembers(key, target, undefined, frozen);
      return;
    }
    if (typeof descriptor?.value !== 'function' || typeof propertyKey !== 'string') {
      recordMisplaced(target, { decorator: label, propertyKey: String(propertyKey), belongsOn: 'a class or a method' });
      return;
    }
    prependPipelineMembers(key, target, propertyKey, frozen);
  };
}
