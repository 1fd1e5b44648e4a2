import type { JsonObject } from '../core/wire.types';

/** How many tools, prompts and resources (fixed and templates) the server serves now. */
export interface FeatureCounts {
  readonly tools: number;
  readonly prompts: number;
  readonly resources: number;
}

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
