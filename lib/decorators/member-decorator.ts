import { appendMember, recordMisplaced } from '../metadata/metadata-store';
import { METADATA_KEYS } from '../metadata/metadata-keys';

/**
 * The signature our method decorators present. It is wider than `MethodDecorator` on purpose: a
 * misplaced `@Tool` on a property (possible from JavaScript, or with a cast) must reach the scanner
 * as a start-up error instead of vanishing.
 */
export type MemberDecorator = (target: object, propertyKey: string | symbol, descriptor?: PropertyDescriptor) => void;

type MemberKey = typeof METADATA_KEYS.tools | typeof METADATA_KEYS.resources | typeof METADATA_KEYS.prompts | typeof METADATA_KEYS.skills | typeof METADATA_KEYS.toolUi;

/** Builds a decorator that records `options` for the decorated method, and nothing else. */
export function recordingDecorator<O extends object>(key: MemberKey, label: string, options: O): MemberDecorator {
  const frozen = Object.freeze({ ...options });
  return (target, propertyKey, descriptor) => {
    const isMethod = typeof descriptor?.value === 'function';
    if (!isMethod || typeof propertyKey !== 'string') {
      recordMisplaced(target, { decorator: label, propertyKey: String(propertyKey) });
      return;
    }
    appendMember(key, target, { propertyKey, options: frozen });
  };
}
