import { ErrorCode } from '../../core/error-codes';
import type { JsonRpcRequest } from '../../core/jsonrpc';
import { Method } from '../../core/methods';
import type { ClientCapabilities, JsonObject } from '../../core/wire.types';
import type { ToolVisibility } from '../../router/visibility';
import type { Refusal } from '../refusal';
import { TaskChannel } from './extension-task-channel';
import { taskOwner } from './task-owner';
import type { PendingTask, TaskService } from './task-service';
import { declaresTasks, tasksExtensionMissing } from './tasks-extension';

/** What decides whether a stateless `tools/call` may become a task. */
export interface ExtensionTaskCallDeps {
  readonly tasks: TaskService;
  /** Whether the tool `name` may run as a task; `undefined` for no such tool (cheap: every `tools/call` asks). */
  readonly toolTaskSupport: (name: string) => 'forbidden' | 'optional' | 'required' | undefined;
  /** The tools `principal` may know: a hidden tool is unknown, never a task. */
  readonly visibility: ToolVisibility;
  /** Tells every subscriber that a resource changed (a task's handler may). */
  readonly resourceUpdated: (uri: string) => Promise<void>;
}

/**
 * The tasks extension on a `tools/call` (2026-07-28): a call of a tool that may run as a task,
 * from a request that declares the extension, may become one (its handler decides, with
 * `ctx.runAsTask`); a tool that requires one, called without the extension, is refused (-32021);
 * any other call is an ordinary one (`undefined`).
 */
export function extensionTaskOf(deps: ExtensionTaskCallDeps, message: JsonRpcRequest, clientCapabilities: ClientCapabilities | undefined, principal: unknown): PendingTask | Refusal | undefined {
  const name = message.params?.name;
  if (message.method !== Method.ToolsCall || typeof name !== 'string') return undefined;
  const support = deps.toolTaskSupport(name);
  if (support === undefined || support === 'forbidden' || !deps.visibility.tool(name, principal)) return undefined;
  if (!declaresTasks(clientCapabilities as JsonObject | undefined)) {
    return support === 'required' ? { kind: 'missing-capability', error: tasksExtensionMissing().toJSON() } : undefined;
  }
  return deps.tasks.begin({
    owner: taskOwner(principal, undefined),
    era: 'stateless',
    tool: name,
    channel: (taskId) => new TaskChannel(deps.tasks, taskId, deps.resourceUpdated),
  });
}

/**
 * The tasks extension's part of a `subscriptions/listen` filter, `taskIds`, where the server
 * serves tasks (a tool may run as one): only for a request that declares the extension (-32021,
 * checked before its shape), an array of strings (-32602). Elsewhere the key is ignored.
 */
export function taskIdsRefusal(asked: JsonObject, clientCapabilities: ClientCapabilities | undefined, hasTaskTools: boolean): Refusal | undefined {
  const { taskIds } = asked;
  if (taskIds === undefined || !hasTaskTools) return undefined;
  if (!declaresTasks(clientCapabilities as JsonObject | undefined)) return { kind: 'missing-capability', error: tasksExtensionMissing().toJSON() };
  if (!Array.isArray(taskIds) || !taskIds.every((id) => typeof id === 'string')) {
    return { kind: 'invalid-params', error: { code: ErrorCode.InvalidParams, message: '"notifications.taskIds" must be an array of strings' } };
  }
  return undefined;
}

/** The task ids a listen stream is agreed to hear about: asked for, where tasks are served, by a request declaring the extension. */
export function agreedTaskIds(asked: JsonObject, clientCapabilities: ClientCapabilities | undefined, hasTaskTools: boolean): string[] | undefined {
  // Task tools may have come since the request was checked: the filter holds to the same rules.
  if (!Array.isArray(asked.taskIds) || !hasTaskTools || !declaresTasks(clientCapabilities as JsonObject | undefined)) return undefined;
  return [...new Set(asked.taskIds.filter((id): id is string => typeof id === 'string'))];
}
