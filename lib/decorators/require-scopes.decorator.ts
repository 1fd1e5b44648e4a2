import { appendScopes, recordMisplaced } from '../metadata/metadata-store';
import type { ClassOrMethodDecorator } from './pipeline-member.decorator';

/**
 * The OAuth scopes a caller's token must grant to use the tools, prompts and resources of a class
 * (on the class) or one of them (on a method); they add up with each other and with the `scopes`
 * option of `@Tool`, `@Resource` and `@Prompt`. A call without all of them is refused before any
 * other guard runs, with `InsufficientScopeError` (-32003 with `data.requiredScopes`; over HTTP a
 * 403 with `WWW-Authenticate: Bearer error="insufficient_scope", scope="..."`, so the client can
 * ask for them). The scopes are read from the principal's `scopes` (an `AuthInfo`, from
 * `oauthResourceServer`); a caller without a token has none. Scopes are checked at start-up:
 * printable ASCII without space, `"` or `\`.
 *
 * @example
 * @RequireScopes('notes:read')
 * class NotesTools {
 *   @Tool({ description: 'Read a note' }) read(args: NoteRef) { ... }                          // notes:read
 *   @RequireScopes('notes:write') @Tool({ description: 'Write a note' }) write(args: Note) { ... }  // both
 * }
 */
export function RequireScopes(...scopes: string[]): ClassOrMethodDecorator {
  const frozen = Object.freeze([...scopes]);
  return (target, propertyKey, descriptor) => {
    if (propertyKey === undefined) {
      appendScopes(target, undefined, frozen);
      return;
    }
    if (typeof descriptor?.value !== 'function' || typeof propertyKey !== 'string') {
      recordMisplaced(target, { decorator: '@RequireScopes', propertyKey: String(propertyKey), belongsOn: 'a class or a method' });
      return;
    }
    appendScopes(target, propertyKey, frozen);
  };
}
