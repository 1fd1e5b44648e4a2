import { ErrorCode } from '../../core/error-codes';
import type { JsonObject } from '../../core/wire.types';
import type { TaskRecord } from '../seams/task-store';

/** `_meta` key of what relates to a task in 2025-11-25. */
export const RELATED_TASK = 'io.modelcontextprotocol/related-task';

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** What each era names a task's ttl and poll interval. */
const DURATION_NAMES = Object.freeze({ session: ['ttl', 'pollInterval'], extension: ['ttlMs', 'pollIntervalMs'] } as const);

/** A task's `Task` fields, its durations named as `era` names them. */
function taskFields(task: TaskRecord, era: keyof typeof DURATION_NAMES): JsonObject {
  const [ttl, pollInterval] = DURATION_NAMES[era];
  const view: JsonObject = { taskId: task.id, status: task.status };
  if (task.statusMessage !== undefined) view.statusMessage = task.statusMessage;
  view.createdAt = iso(task.createdAt);
  view.lastUpdatedAt = iso(task.lastUpdatedAt);
  view[ttl] = task.ttlMs;
  view[pollInterval] = task.pollIntervalMs;
  return view;
}

/** 2025-11-25: the `Task` of `CreateTaskResult`, `tasks/get`, `tasks/list`, `tasks/cancel` and the status notification. */
export function sessionTaskView(task: TaskRecord): JsonObject {
  return taskFields(task, 'session');
}

/** The tasks extension: the flat `Task` fields (of `CreateTaskResult`, and the base of `tasks/get`). */
export function extensionTaskView(task: TaskRecord): JsonObject {
  return taskFields(task, 'extension');
}

/**
 * The tasks extension's `DetailedTask`: what it waits on while `input_required`, the call's result
 * once `completed`, its error once `failed` (as `tasks/get` and `notifications/tasks` show it).
 */
export function detailedTaskView(task: TaskRecord): JsonObject {
  const view = extensionTaskView(task);
  if (task.status === 'input_required') view.inputRequests = (task.inputRequests ?? {}) as unknown as JsonObject;
  const outcome = task.outcome;
  if (task.status === 'completed' && outcome && 'result' in outcome) view.result = withoutRelatedTask(outcome.result);
  if (task.status === 'failed' && outcome && 'error' in outcome) view.error = outcome.error as unknown as JsonObject;
  // A finished task whose result was dropped cannot show one: it shows the error that says why.
  if (task.dropped !== undefined && !outcome && task.status !== 'cancelled') {
    view.status = 'failed';
    view.error = { code: ErrorCode.InternalError, message: task.dropped, data: { resultDropped: true } };
  }
  return view;
}

/** A result without the 2025-11-25 related-task key, which the extension does not use. */
function withoutRelatedTask(result: JsonObject): JsonObject {
  const meta = result._meta as JsonObject | undefined;
  if (!meta || !Object.hasOwn(meta, RELATED_TASK)) return result;
  const { [RELATED_TASK]: _dropped, ...rest } = meta;
  return Object.keys(rest).length > 0 ? { ...result, _meta: rest } : (({ _meta: _m, ...bare }) => bare)(result);
}
