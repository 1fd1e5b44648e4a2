import type { PhantomServer } from '../index';
import { Method, type WirePrompt, type WireResource, type WireResourceTemplate, type WireTool } from '../entries/protocol';

/** Everything a server lists, every page of it: what `tools/list` and the others return. */
export interface ServerLists {
  readonly tools: readonly WireTool[];
  readonly resources: readonly WireResource[];
  readonly resourceTemplates: readonly WireResourceTemplate[];
  readonly prompts: readonly WirePrompt[];
}

export async function listAll(server: PhantomServer): Promise<ServerLists> {
  return {
    tools: await pages<WireTool>(server, Method.ToolsList, 'tools'),
    resources: await pages<WireResource>(server, Method.ResourcesList, 'resources'),
    resourceTemplates: await pages<WireResourceTemplate>(server, Method.ResourcesTemplatesList, 'resourceTemplates'),
    prompts: await pages<WirePrompt>(server, Method.PromptsList, 'prompts'),
  };
}

/** Follows `nextCursor` to the last page (a page size is the server's option). */
async function pages<T>(server: PhantomServer, method: string, key: string): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const outcome = await server.handle(method, cursor === undefined ? {} : { cursor });
    if ('error' in outcome) throw new Error(`${method} failed: ${outcome.error.message} (${outcome.error.code})`);
    items.push(...(outcome.result[key] as unknown as T[]));
    const next = outcome.result.nextCursor;
    cursor = typeof next === 'string' ? next : undefined;
  } while (cursor !== undefined);
  return items;
}
