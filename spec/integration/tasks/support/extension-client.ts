import { eventually } from '../../../support/eventually';
import { call, meta, type StatelessReply } from '../../support/stateless-client';

/** The tasks extension's label, in capabilities and in `-32021` data. */
export const TASKS = 'io.modelcontextprotocol/tasks';

/** Client capabilities of a request that declares the extension (and can answer elicitations). */
export const DECLARING = Object.freeze({ elicitation: {}, extensions: { [TASKS]: {} } });

/** What every `-32021` of the extension says it needs. */
export const TASKS_MISSING_DATA = Object.freeze({ requiredCapabilities: { extensions: { [TASKS]: {} } } });

/** A `tools/call` at 2026-07-28 with `capabilities` in `_meta`; `extra` goes into params (inputResponses, requestState). */
export function callTool(url: string, name: string, args: Record<string, unknown> = {}, capabilities: object = DECLARING, extra: Record<string, unknown> = {}, headers: Record<string, string | undefined> = {}): Promise<StatelessReply> {
  return call(url, 'tools/call', { _meta: meta(capabilities as Record<string, unknown>), name, arguments: args, ...extra }, headers);
}

/** A `tasks/*` request with `Mcp-Name` set to its `taskId` (override or drop it with `headers`). */
export function taskRequest(url: string, method: string, params: Record<string, unknown>, capabilities: object = DECLARING, headers: Record<string, string | undefined> = {}): Promise<StatelessReply> {
  const name = typeof params.taskId === 'string' ? { 'mcp-name': params.taskId } : {};
  return call(url, method, { _meta: meta(capabilities as Record<string, unknown>), ...params }, { ...name, ...headers });
}

/** The `tasks/get` result of the task (throws on an error answer). */
export async function getTask(url: string, taskId: string, headers: Record<string, string | undefined> = {}): Promise<any> {
  const reply = await taskRequest(url, 'tasks/get', { taskId }, DECLARING, headers);
  if (!reply.body.result) throw new Error(`tasks/get answered ${JSON.stringify(reply.body)}`);
  return reply.body.result;
}

/** Polls `tasks/get` until the task's status is one of `statuses`; that result. */
export async function taskReaching(url: string, taskId: string, statuses: readonly string[], headers: Record<string, string | undefined> = {}): Promise<any> {
  let last: any;
  await eventually(`task ${taskId} reaching ${statuses.join('|')}`, async () => {
    last = await getTask(url, taskId, headers);
    return statuses.includes(last.status);
  });
  return last;
}

/** The id of the task a `tools/call` answered with (throws when it did not become one). */
export function taskIdOf(reply: StatelessReply): string {
  const id = reply.body.result?.taskId;
  if (typeof id !== 'string') throw new Error(`no task: ${JSON.stringify(reply.body)}`);
  return id;
}
