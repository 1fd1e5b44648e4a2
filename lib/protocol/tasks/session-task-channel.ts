import type { ChannelRequestOptions, ClientChannel } from '../../context/client-channel';
import { ToolError } from '../../core/errors';
import { notification, request, type JsonRpcMessage } from '../../core/jsonrpc';
import type { Method, Notification } from '../../core/methods';
import type { JsonObject, LoggingLevel } from '../../core/wire.types';
import type { TaskService } from './task-service';
import { RELATED_TASK } from './task-views';
import { PendingRequests } from '../session-era/pending-requests';
import type { SessionState } from '../seams/session-state';

/** What a task's channel needs from the session era. */
export interface TaskChannelHost {
  readonly pending: PendingRequests;
  /** Sends `message` for the task: on a `tasks/result` stream of it open on this node, else on the session's standalone stream, wherever that is held. */
  sendForTask(taskId: string, sessionId: string, message: JsonRpcMessage): void;
  /** The request `requestId` of the task is answered or given up: it is no longer to be sent. */
  settled(taskId: string, requestId: string | number): void;
  resourceUpdated(uri: string): Promise<void>;
}

/**
 * The way back to the client of a task in 2025-11-25, once its `tools/call` was answered: its
 * progress and logs go where messages of no request go (a `tasks/result` stream of the task,
 * else the standalone stream), tagged with the task; what it asks the client makes the task
 * `input_required` until the client answers, on any node.
 */
export class SessionTaskChannel implements ClientChannel {
  constructor(
    private readonly host: TaskChannelHost,
    private readonly tasks: Pick<TaskService, 'openInput' | 'closeInput'>,
    private readonly state: SessionState,
    private readonly taskId: string,
  ) {}

  get logLevel(): LoggingLevel | undefined {
    return this.state.logLevel;
  }

  async notify(method: Notification, params: JsonObject): Promise<void> {
    this.host.sendForTask(this.taskId, this.state.id, notification(method, this.related(params)));
  }

  async request(method: Method, params: JsonObject, options: ChannelRequestOptions): Promise<JsonObject> {
    const key = await this.tasks.openInput(this.taskId, method, params, options.key);
    const id = this.host.pending.allocateId();
    try {
      const answer = this.host.pending.wait(this.state.id, id, method, options.timeoutMs, options.signal, PendingRequests.sizeOf(params));
      this.host.sendForTask(this.taskId, this.state.id, request(id, method, this.related(params)));
      return await answer;
    } finally {
      this.host.settled(this.taskId, id);
      await this.tasks.closeInput(this.taskId, key);
    }
  }

  resourceUpdated(uri: string): Promise<void> {
    return this.host.resourceUpdated(uri);
  }

  missingCapabilities(names: readonly string[]): Error {
    return new ToolError(`This needs the client capabilities ${names.join(', ')}, which the client did not declare`);
  }

  /** `params` with the related-task `_meta` the revision asks of everything sent for a task. */
  private related(params: JsonObject): JsonObject {
    return { ...params, _meta: { ...(params._meta as JsonObject | undefined), [RELATED_TASK]: { taskId: this.taskId } } };
  }
}
