import { ProtocolError } from '../../core/errors';
import type { JsonObject } from '../../core/wire.types';

/** The `taskId` of a `tasks/*` request (both eras), or -32602 naming what is wrong with it. */
export function taskIdOf(params: JsonObject): string {
  const id = params.taskId;
  if (typeof id !== 'string' || id.length === 0) throw ProtocolError.invalidParams('"taskId" must be a non-empty string');
  return id;
}

/**
 * The task, or -32602 "Task not found" (both eras alike): a task another caller owns is unknown
 * here, as one that never was; `why` says more when the server knows it (it expired).
 */
export function foundTask<T>(task: T | undefined, why?: string): T {
  if (!task) throw ProtocolError.invalidParams(why === undefined ? 'Task not found' : `Task not found (${why})`);
  return task;
}
