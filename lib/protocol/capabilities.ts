import { knowsTasks } from '../core/revisions';
import type { JsonObject } from '../core/wire.types';

export { TASKS_SINCE } from '../core/revisions';

/** How many tools, prompts and resources (fixed and templates) the server serves now. */
export interface FeatureCounts {
  readonly tools: number;
  readonly prompts: number;
  readonly resources: number;
  /** Tools that may run as tasks. */
  readonly taskTools: number;
}

/** The tasks extension of protocol 2026-07-28 (SEP-2663). */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/**
 * The server's capabilities, computed from what is registered: a server advertises only the
 * features it has. `logging` is always there, since every handler can log.
 */
export function serverCapabilities({ tools, prompts, resources }: FeatureCounts): JsonObject {
  const capabilities: JsonObject = { logging: {} };
  if (prompts > 0 || resources > 0) capabilities.completions = {};
  if (tools > 0) capabilities.tools = { listChanged: true };
  if (prompts > 0) capabilities.prompts = { listChanged: true };
  if (resources > 0) capabilities.resources = { subscribe: true, listChanged: true };
  return capabilities;
}

/**
 * The session era's capabilities: with tasks (2025-11-25 only) when a tool may run as one, and
 * `extensions` when the server's extensions advertise something to this client.
 */
export function sessionCapabilities(counts: FeatureCounts, protocolVersion: string, extensions?: JsonObject): JsonObject {
  const capabilities = serverCapabilities(counts);
  if (counts.taskTools > 0 && knowsTasks(protocolVersion)) capabilities.tasks = { list: {}, cancel: {}, requests: { tools: { call: {} } } };
  if (extensions) capabilities.extensions = extensions;
  return capabilities;
}

/** The stateless era's capabilities: with what the server's extensions advertise (the tasks extension among them, while a tool may run as a task). */
export function statelessCapabilities(counts: FeatureCounts, extensions?: JsonObject): JsonObject {
  const capabilities = serverCapabilities(counts);
  if (extensions) capabilities.extensions = extensions;
  return capabilities;
}
