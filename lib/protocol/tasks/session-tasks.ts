import type { Cancellation } from '../../core/cancellation';
import type { Diagnostics } from '../../core/diagnostics';
import { ErrorCode } from '../../core/error-codes';
import type { ErrorObject } from '../../core/error-mapper';
import { ProtocolError } from '../../core/errors';
import { notification, type JsonRpcMessage, type JsonRpcRequest } from '../../core/jsonrpc';
import { Method } from '../../core/methods';
import type { JsonObject } from '../../core/wire.types';
import type { Outcome } from '../../router/router';
import type { ToolVisibility } from '../../router/extensions/tool-visibility';
import { TASKS_SINCE } from '../capabilities';
import type { SessionEraMethod } from '../era-methods';
import type { ServerEvents } from '../events/server-events';
import type { Exchange } from '../in-flight';
import type { SessionBus } from '../seams/session-bus';
import type { SessionState } from '../seams/session-state';
import type { TaskRecord } from '../seams/task-store';
import { taskOwner } from './task-owner';
import { foundTask, taskIdOf } from './task-params';
import type { PendingTask, TaskService } from './task-service';
import { RELATED_TASK, sessionTaskView } from './task-views';
import type { PendingRequests } from '../session-era/pending-requests';
import { SessionTaskChannel, type TaskChannelHost } from './session-task-channel';

/** One request of the session era's task methods: who asks, with what, and its way back. */
export interface TaskRequest {
  readonly state: SessionState;
  readonly params: JsonObject;
  readonly principal: unknown;
  readonly exchange: Exchange;
  readonly cancellation: Cancellation;
}

type TaskMethod = (tasks: SessionTasks, request: TaskRequest, owner: string) => Promise<Outcome | undefined>;

/** The 2025-11-25 task methods. */
const TASK_METHODS: ReadonlyMap<string, TaskMethod> = new Map<string, TaskMethod>([
  ['tasks/get', async (tasks, { params }, owner) => ({ result: sessionTaskView(foundTask(await tasks.service.get(taskIdOf(params), owner))) })],
  ['tasks/result', (tasks, request, owner) => tasks.result(request, owner)],
  ['tasks/list', async (tasks, { params }, owner) => {
    const cursor = params.cursor;
    if (cursor !== undefined && typeof cursor !== 'string') throw ProtocolError.invalidParams('"cursor" must be a string');
    const page = await tasks.service.list(owner, cursor);
    if (!page) throw ProtocolError.invalidParams('Invalid cursor');
    return { result: { tasks: page.tasks.map(sessionTaskView), ...(page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor }) } as unknown as JsonObject };
  }],
  ['tasks/cancel', async (tasks, { params }, owner) => {
    const cancelled = foundTask(await tasks.service.cancel(taskIdOf(params), owner));
    if (cancelled.wasTerminal) throw ProtocolError.invalidParams(`Cannot cancel task: already in terminal status '${cancelled.task.status}'`);
    return { result: sessionTaskView(cancelled.task) };
  }],
]);

/** What the session era's tasks are built from. */
export interface SessionTasksDeps {
  readonly service: TaskService;
  readonly pending: PendingRequests;
  readonly events: Pick<ServerEvents, 'deliver'>;
  readonly bus: Pick<SessionBus, 'publish'>;
  readonly resourceUpdated: (uri: string) => Promise<void>;
  /** Whether the tool `name` may run as a task; `undefined` for no such tool (cheap: every `tools/call` asks). */
  readonly toolTaskSupport: (name: string) => 'forbidden' | 'optional' | 'required' | undefined;
  /** The tools `principal` may know (the server's visibility resolver): a hidden tool is unknown, never a task. */
  readonly visibility: ToolVisibility;
  /** Whether any tool may run as a task now (the capability is declared then). */
  readonly hasTaskTools: () => boolean;
  readonly diagnostics: Diagnostics;
}

/**
 * Tasks in the session era (2025-11-25): `tools/call` with `params.task` becomes a task, and
 * `tasks/get`, `tasks/result`, `tasks/list`, `tasks/cancel` serve it, bound to the caller (its
 * principal, else its session). A task's handler reaches the client on a `tasks/result` stream of
 * the task when one is open on its node, else on the session's standalone stream; every status
 * change is announced there too (`notifications/tasks/status`).
 */
export class SessionTasks implements TaskChannelHost {
  readonly service: TaskService;
  readonly pending: PendingRequests;
  /** `tasks/result` requests of each task waiting on this node: where its handler's messages go first. */
  private readonly resultStreams = new Map<string, Set<Exchange>>();
  /**
   * Requests of each task's handler that no stream of this node could carry when they were sent
   * (no `tasks/result` of the task open, no standalone stream held here): the next `tasks/result`
   * of the task here carries them. A client that only polls sees `input_required` and calls
   * `tasks/result`; without this its handler would wait for an answer to a request never seen.
   */
  private readonly unsent = new Map<string, Map<string | number, JsonRpcMessage>>();
  private readonly stop: () => void;

  constructor(private readonly deps: SessionTasksDeps) {
    ({ service: this.service, pending: this.pending } = deps);
    this.stop = deps.service.onChange((id) => void this.announceStatus(id));
  }

  /**
   * The 2025-11-25 task methods, for the method table: served to a session whose revision has
   * tasks while a tool may run as one (otherwise unknown, -32601), through the pipeline.
   */
  methods(): SessionEraMethod[] {
    return [...TASK_METHODS].map(([method, serve]): SessionEraMethod => ({
      method,
      era: 'session',
      kind: 'protocol',
      available: ({ state }) => state.protocolVersion >= TASKS_SINCE && this.deps.hasTaskTools(),
      serve: async (params, { state, principal, exchange, cancellation }) => {
        const served = await serve(this, { state, params, principal, exchange, cancellation }, taskOwner(principal, state.id));
        if (served && 'error' in served) throw new ProtocolError(served.error.code, served.error.message, served.error.data);
        return served?.result;
      },
    }));
  }

  /**
   * What a `tools/call` is as to tasks: one that may become a task (`params.task` on a tool that
   * allows it), an error (a tool that requires a task called without one, or one that forbids it
   * called with one: -32601), or an ordinary call (`undefined`; so is every call of a session
   * whose revision has no tasks).
   */
  taskOf(state: SessionState, message: JsonRpcRequest, principal: unknown): PendingTask | ErrorObject | undefined {
    const params = message.params ?? {};
    const name = params.name;
    if (message.method !== Method.ToolsCall || typeof name !== 'string') return undefined;
    const support = this.deps.toolTaskSupport(name);
    const asked = params.task;
    const wantsTask = typeof asked === 'object' && asked !== null && !Array.isArray(asked);
    // The ordinary call, first and cheaply: a tool that is no task, called as none.
    if (support === undefined || (support === 'forbidden' && !wantsTask)) return undefined;
    if (state.protocolVersion < TASKS_SINCE || !this.deps.hasTaskTools() || !this.deps.visibility.tool(name, principal, { era: 'session', protocolVersion: state.protocolVersion, clientCapabilities: state.clientCapabilities })) return undefined;
    if (support === 'required' && !wantsTask) return { code: ErrorCode.MethodNotFound, message: `Tool "${name}" must be called as a task (taskSupport: required)` };
    if (support === 'forbidden') return wantsTask ? { code: ErrorCode.MethodNotFound, message: `Tool "${name}" cannot be called as a task` } : undefined;
    if (!wantsTask) return undefined;
    const ttl = (asked as JsonObject).ttl;
    return this.service.begin({
      owner: taskOwner(principal, state.id),
      era: 'session',
      sessionId: state.id,
      tool: name,
      ttlMs: typeof ttl === 'number' ? ttl : undefined,
      channel: (taskId) => new SessionTaskChannel(this, this.service, state, taskId),
    });
  }

  /** `tasks/result`: waits until the task is terminal, then answers exactly what the call would have, tagged with the task. */
  async result({ params, exchange, cancellation }: TaskRequest, owner: string): Promise<Outcome | undefined> {
    const id = taskIdOf(params);
    foundTask(await this.service.get(id, owner));
    let streams = this.resultStreams.get(id);
    if (!streams) this.resultStreams.set(id, (streams = new Set()));
    streams.add(exchange);
    this.sendUnsent(id, exchange);
    try {
      const task = await this.service.whenEnded(id, owner, cancellation);
      if (cancellation.aborted) return undefined;
      return outcomeOf(foundTask(task, `task ${id} expired before it ended: its ttl has passed`));
    } finally {
      streams.delete(exchange);
      if (streams.size === 0 && this.resultStreams.get(id) === streams) this.resultStreams.delete(id);
    }
  }

  sendForTask(taskId: string, sessionId: string, message: JsonRpcMessage): void {
    for (const exchange of this.resultStreams.get(taskId) ?? []) {
      if (!exchange.open) continue;
      exchange.send(message);
      return;
    }
    if (this.deps.events.deliver(sessionId, message)) return;
    if ('method' in message && 'id' in message) {
      let unsent = this.unsent.get(taskId);
      if (!unsent) this.unsent.set(taskId, (unsent = new Map()));
      unsent.set(message.id, message);
    }
    // Another node may hold the session's standalone stream.
    this.deps.bus.publish(sessionId, { kind: 'notify', notification: message as never })
      .catch((error: unknown) => this.deps.diagnostics.error('bus publish failed', error));
  }

  settled(taskId: string, requestId: string | number): void {
    const unsent = this.unsent.get(taskId);
    unsent?.delete(requestId);
    if (unsent?.size === 0) this.unsent.delete(taskId);
  }

  resourceUpdated(uri: string): Promise<void> {
    return this.deps.resourceUpdated(uri);
  }

  /** Sends the task's requests that found no stream, once each, on its `tasks/result` stream. */
  private sendUnsent(taskId: string, exchange: Exchange): void {
    const unsent = this.unsent.get(taskId);
    if (!unsent || !exchange.open) return;
    this.unsent.delete(taskId);
    for (const message of unsent.values()) exchange.send(message);
  }

  close(): void {
    this.stop();
  }

  /** Tells the task's session that its status changed, where this node holds the session's standalone stream. */
  private async announceStatus(id: string): Promise<void> {
    try {
      const task = await this.service.peek(id);
      if (!task || task.era !== 'session' || task.sessionId === undefined) return;
      this.deps.events.deliver(task.sessionId, notification('notifications/tasks/status', sessionTaskView(task)));
    } catch (error) {
      this.deps.diagnostics.error('task status not announced', error);
    }
  }
}

/** What `tasks/result` answers for a terminal task: its call's result or error; a cancelled task has neither. */
function outcomeOf(task: TaskRecord): Outcome {
  const outcome = task.outcome;
  if (outcome && 'result' in outcome) {
    const meta = { ...(outcome.result._meta as JsonObject | undefined), [RELATED_TASK]: { taskId: task.id } };
    return { result: { ...outcome.result, _meta: meta } };
  }
  if (outcome && 'error' in outcome) return { error: outcome.error };
  if (task.dropped !== undefined) return { error: { code: ErrorCode.InternalError, message: task.dropped, data: { taskId: task.id, resultDropped: true } } };
  return { error: { code: ErrorCode.InternalError, message: `Task ${task.id} was cancelled: it has no result` } };
}


