import { clientResultProblem } from '../../core/client-results';
import { ProtocolError } from '../../core/errors';
import type { JsonObject } from '../../core/wire.types';
import { TASKS_EXTENSION } from '../capabilities';
import type { StatelessEraMethod } from '../era-methods';
import { taskOwner } from './task-owner';
import { foundTask, taskIdOf } from './task-params';
import { detailedTaskView } from './task-views';
import type { TaskService } from './task-service';
import { missingCapabilities } from '../stateless-era/input-channel';

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

/**
 * The tasks extension's methods, for the method table: served while a tool may run as a task
 * (otherwise unknown, -32601), only to a request that declares the extension (-32021, refused
 * before the pipeline), through the pipeline, to the task's owner.
 */
export function statelessTaskMethods(tasks: TaskService, hasTaskTools: () => boolean): StatelessEraMethod[] {
  return [...TASK_METHODS].map(([method, serve]): StatelessEraMethod => ({
    method,
    era: 'stateless',
    kind: 'protocol',
    available: () => hasTaskTools(),
    admit: ({ meta }) => (declaresTasks(meta.clientCapabilities as JsonObject) ? undefined : { kind: 'missing-capability', error: tasksExtensionMissing().toJSON() }),
    serve: (params, { principal }) => serve(tasks, params, taskOwner(principal, undefined)),
  }));
}

/** The error for a request that did not declare the tasks extension: -32021, naming it. */
export function tasksExtensionMissing(): ProtocolError {
  return missingCapabilities([`extensions.${TASKS_EXTENSION}`], { extensions: { [TASKS_EXTENSION]: {} } });
}

/** Whether the request's client capabilities declare the tasks extension. */
export function declaresTasks(capabilities: JsonObject | undefined): boolean {
  const extensions = capabilities?.extensions;
  return typeof extensions === 'object' && extensions !== null && !Array.isArray(extensions) && Object.hasOwn(extensions, TASKS_EXTENSION);
}



function answerProblem(method: string, answer: unknown): string | undefined {
  if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) return 'it must be an object';
  return clientResultProblem(method, answer as JsonObject);
}
