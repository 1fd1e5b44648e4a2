import { METADATA_KEYS } from '../metadata/metadata-keys';
import type { GuardShape, PipelineMemberRef } from '../metadata/pipeline-options';
import { pipelineMemberDecorator, type ClassOrMethodDecorator } from './pipeline-member.decorator';

/**
 * Guards the tools, prompts and resources of a class (on the class) or one of them (on a method).
 * Each guard is a class, resolved once from the server's container (so its constructor can inject
 * services), or an instance. They run after the server's own guards (`server.use`), class guards
 * before method guards, each list in the order written; the first to refuse ends the call.
 *
 * A guard's `canActivate(context)` returns `true` to let the call on; anything else refuses it with
 * -32003 (`ErrorCode.Forbidden`). To say why, throw `ForbiddenError(message)`; to answer as if the
 * target did not exist, throw `HiddenError`.
 *
 * @example
 * @injectable()
 * class AdminOnly implements CanActivate {
 *   constructor(private readonly users: Users) {}
 *   canActivate({ context }: ExecutionContext) { return this.users.isAdmin(context.principal); }
 * }
 *
 * @UseGuards(AdminOnly)
 * class AdminTools {
 *   @Tool({ description: 'Drop the cache' }) dropCache() { ... }
 * }
 */
export function UseGuards(...guards: PipelineMemberRef<GuardShape>[]): ClassOrMethodDecorator {
  return pipelineMemberDecorator(METADATA_KEYS.guards, '@UseGuards', guards);
}
