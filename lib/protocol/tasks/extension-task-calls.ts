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
