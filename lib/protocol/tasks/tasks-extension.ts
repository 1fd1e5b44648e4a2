import { clientResultProblem } from '../../core/client-results';
import { ProtocolError } from '../../core/errors';
import type { JsonObject } from '../../core/wire.types';
import { declaresExtension, extensionNotDeclared } from '../../router/extensions/extension-set';
import type { BackgroundCall, Extension, ExtensionHost, ExtensionListenFilter, ExtensionMethod, Negotiation, ToolCallInfo } from '../../router/extensions/extension';
import type { TaskRecord } from '../seams/task-store';
import { TaskChannel } from './extension-task-channel';
import { TaskNotifications } from './task-notifications';
import { TASKS_EXTENSION } from '../capabilities';
import { taskOwner } from './task-owner';
import { foundTask, taskIdOf } from './task-params';
import { detailedTaskView, extensionTaskView } from './task-views';
import type { PendingTask, TaskService } from './task-service';

type TaskMethod = (tasks: TaskService, params: JsonObject, owner: string) => Promise<JsonObject>;

const ACK: JsonObject = Object.freeze({ resultType: 'complete' }) as JsonObject;

/** The tasks extension's methods (`tasks/result` and `tasks/list` are not among them: -32601). */
const TASK_METHODS: ReadonlyMap<string, TaskMethod> = new Map<string, TaskMethod>([
  ['tasks/get', async (tasks, params, owner) => ({ resultType: 'complete', ...detailedTaskView(foundTask(await tasks.get(taskIdOf(params), owner))) })],
  ['tasks/update', async (tasks, params, owner) => {
    const responses = params.inputResponses;
    if (typeof responses !== 'object' || responses === null || Array.isArray(responses)) throw ProtocolError.invalidParams('"inputResponses" must be an object');
    foundTask(await tasks.answer(taskIdOf(params), owner, responses as JsonObject, (request, answer) => answerProblem(request.method, answer)));
    return ACK;
  }],
  ['tasks/cancel', async (tasks, params, owner) => {
    foundTask((await tasks.cancel(taskIdOf(params), owner))?.task);
    return ACK;
  }],
]);

/** What the tasks extension is built from. */
export interface TasksExtensionParts {
  /** The server's tasks (made with its protocol layer, on first use). */
  readonly service: () => TaskService;
  /** Whether a tool may run as a task now: only then is the extension advertised and are its methods served. */
  readonly hasTaskTools: () => boolean;
  /** Tells every subscriber, in either era, that a resource changed (a task's handler may). */
  readonly resourceUpdated: (uri: string) => Promise<void>;
}

/**
 * The tasks extension of protocol 2026-07-28 (`io.modelcontextprotocol/tasks`, SEP-2663), written
 * on the public extension API as a user's extension is: advertised in the stateless era while a
 * tool may run as a task (otherwise its methods are unknown, -32601); `tasks/get`, `tasks/update`
 * and `tasks/cancel` served only to a client that declares it (-32021), through the operation
 * pipeline, to the task's owner. The 2025-11-25 tasks (`capabilities.tasks`, `tasks/result`,
 * `tasks/list`) are a core capability of that revision, not an extension: the session era serves
 * them itself (`SessionTasks`).
 */
export function tasksExtension({ service, hasTaskTools, resourceUpdated }: TasksExtensionParts): Extension {
  const methods = Object.fromEntries([...TASK_METHODS].map(([name, serve]): [string, ExtensionMethod] => [name, {
    handle: (params, ctx) => serve(service(), params, taskOwner(ctx.principal, undefined)),
  }]));
  let notifications: TaskNotifications | undefined;
  return Object.freeze({
    id: TASKS_EXTENSION,
    clientMustDeclare: true,
    settings: ({ era }: Negotiation) => (era === 'stateless' && hasTaskTools() ? {} : undefined),
    methods,
    listenFilter: TASK_IDS,
    backgroundCalls: {
      // A call of a tool that may run as a task, from a request that declares the extension, may
      // become one (its handler decides); a tool that requires one, called without it, is refused.
      begin: ({ tool, taskSupport, principal, negotiation }: ToolCallInfo) => {
        if (taskSupport === undefined || taskSupport === 'forbidden') return undefined;
        if (!declaresTasks(negotiation.clientCapabilities as JsonObject)) {
          if (taskSupport === 'required') throw tasksExtensionMissing();
          return undefined;
        }
        const tasks = service();
        return asCreateTaskResult(tasks.begin({
          owner: taskOwner(principal, undefined),
          era: 'stateless',
          tool,
          channel: (taskId) => new TaskChannel(tasks, taskId, resourceUpdated),
        }));
      },
    },
    // `notifications/tasks` on this node's listen streams naming a task, each time it changes on any node.
    setup: (host: ExtensionHost) => void (notifications ??= new TaskNotifications(service(), host)),
    close: () => notifications?.stop(),
  });
}

/** A call that may become a task, answered with the extension's `CreateTaskResult` once it does. */
function asCreateTaskResult(pending: PendingTask): BackgroundCall {
  let shown: JsonObject | undefined;
  const view = (task: TaskRecord) => (shown ??= { resultType: 'task', ...extensionTaskView(task) });
  return {
    starter: pending.starter,
    started: pending.started.then(view),
    get running() {
      return pending.running && view(pending.running);
    },
    finish: (outcome) => pending.finish(outcome),
  };
}

/** `subscriptions/listen`'s `taskIds`: the tasks whose changes a stream hears (`notifications/tasks`). */
const TASK_IDS: ExtensionListenFilter = Object.freeze({
  key: 'taskIds',
  accept: (asked: unknown) => {
    if (!Array.isArray(asked) || !asked.every((id) => typeof id === 'string')) throw ProtocolError.invalidParams('"notifications.taskIds" must be an array of strings');
    return asked as string[];
  },
});

/** The error for a request that did not declare the tasks extension: -32021, naming it. */
export function tasksExtensionMissing(): ProtocolError {
  return extensionNotDeclared(TASKS_EXTENSION);
}

/** Whether the request's client capabilities declare the tasks extension. */
export function declaresTasks(capabilities: JsonObject | undefined): boolean {
  return declaresExtension(capabilities, TASKS_EXTENSION);
}

function answerProblem(method: string, answer: unknown): string | undefined {
  if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) return 'it must be an object';
  return clientResultProblem(method, answer as JsonObject);
}
