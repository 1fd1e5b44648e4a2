/**
 * What each protocol revision knows, where more than one layer needs to ask: the protocol layer
 * (capabilities, task methods) and the router (what a tool listing shows).
 */

/** The first revision with tasks (2025-11-25; the stateless era has them as an extension). */
export const TASKS_SINCE = '2025-11-25';

/**
 * Whether a request served at `protocolVersion` may see tasks: the `tasks` capability, the task
 * methods, a tool's `execution.taskSupport`. 2025-03-26 and 2025-06-18 do not define them. A
 * request served in-process (`server.handle`, no revision) sees everything.
 */
export function knowsTasks(protocolVersion: string | undefined): boolean {
  return protocolVersion === undefined || protocolVersion >= TASKS_SINCE;
}
