import { missingScopes, SCOPE_TOKEN } from '../../../core/auth-info';
import { InsufficientScopeError, PhantomError } from '../../../core/errors';
import type { ExecutionContext } from '../execution-context';
import type { CanActivate } from '../guard';

/**
 * A built-in guard: the call goes on only if the caller's principal grants every one of `scopes`
 * (its `scopes`: an `AuthInfo` from `oauthResourceServer`, or any principal with a `scopes` array);
 * otherwise it is refused with `InsufficientScopeError` (-32003, `data.requiredScopes`). A caller
 * without a principal (stdio, in-process, an HTTP server without authentication) has no scopes.
 *
 * The scopes a target declares (`@RequireScopes`, the `scopes` option) are enforced by one of
 * these, made by the router, before every other guard; use it yourself for scopes that every
 * operation needs, lists included.
 *
 * @example
 * server.use(new ScopeGuard('mcp:access'));             // every operation, tools/list included
 */
export class ScopeGuard implements CanActivate {
  readonly scopes: readonly string[];

  constructor(...scopes: string[]) {
    const invalid = scopes.filter((scope) => typeof scope !== 'string' || !SCOPE_TOKEN.test(scope));
    if (invalid.length > 0) throw new PhantomError('scope_invalid', `ScopeGuard: ${invalid.map((s) => JSON.stringify(s)).join(', ')} are not scopes (printable ASCII without space, " or \\)`);
    this.scopes = Object.freeze([...new Set(scopes)]);
  }

  /** Lets the call on when the principal grants every one of `scopes`; else throws `InsufficientScopeError` naming the missing ones. */
  canActivate(call: ExecutionContext): boolean {
    const missing = missingScopes(call.context.principal, this.scopes);
    if (missing.length > 0) throw new InsufficientScopeError(this.scopes, missing, `${call.method}${call.target === undefined ? '' : ` of ${call.target}`}`);
    return true;
  }
}
