import type { ExecutionContext } from './execution-context';

/**
 * A guard decides whether a call may go on, before its arguments are validated and its handler
 * runs (NestJS's `CanActivate`). Return `true` to let it on; anything else refuses it with -32003
 * (`ErrorCode.Forbidden`; status 403 in the stateless era over HTTP). Throw `ForbiddenError` to say
 * why, `HiddenError` to answer as if the target did not exist, or any `ProtocolError` for another
 * JSON-RPC error. Register one with `server.use(...)` (every operation) or `@UseGuards(...)`.
 *
 * @example
 * @injectable()
 * class NotesWriters implements CanActivate {
 *   constructor(private readonly acl: Acl) {}            // resolved from the server's container
 *   canActivate({ context, target }: ExecutionContext) {
 *     return this.acl.mayWrite(context.principal, target);
 *   }
 * }
 */
export interface CanActivate {
  /**
   * Decides on one call: `true` lets it on, `false` refuses it with a generic -32003; throw to refuse
   * it with a specific error (see above). Guards run in the order registered; the first refusal ends
   * the call and the later guards do not run.
   */
  canActivate(context: ExecutionContext): boolean | Promise<boolean>;
}
