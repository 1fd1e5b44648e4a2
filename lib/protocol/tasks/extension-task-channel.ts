import type { ChannelRequestOptions, ClientChannel } from '../../context/client-channel';
import type { Method, Notification } from '../../core/methods';
import type { JsonObject } from '../../core/wire.types';
import type { TaskService } from './task-service';
import { missingCapabilities } from '../stateless-era/input-channel';

/**
 * The way back to the client of a task in the tasks extension: what the handler asks waits in
 * the task (`input_required`, shown by `tasks/get`) until the client answers with `tasks/update`,
 * on any node. The extension carries no progress or log messages for a task: they are dropped.
 */
export class TaskChannel implements ClientChannel {
  readonly logLevel = 'off' as const;

  constructor(
    private readonly tasks: Pick<TaskService, 'ask'>,
    private readonly taskId: string,
    private readonly onResourceUpdated: (uri: string) => Promise<void>,
  ) {}

  async notify(_method: Notification, _params: JsonObject): Promise<void> {}

  request(method: Method, params: JsonObject, options: ChannelRequestOptions): Promise<JsonObject> {
    return this.tasks.ask(this.taskId, method, params, options);
  }

  resourceUpdated(uri: string): Promise<void> {
    return this.onResourceUpdated(uri);
  }

  missingCapabilities(names: readonly string[]): Error {
    return missingCapabilities(names);
  }
}
