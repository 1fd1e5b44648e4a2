import 'reflect-metadata';
import { performance } from 'node:perf_hooks';
import { PhantomServer } from 'phantom-mcp';
import { toolProviders } from '../fixtures/phantom.fixtures';
import { sdkServer } from '../fixtures/sdk.fixtures';
import { argNumber, argValue, runContender, serveBench } from './bench-channel';

/** What one start-up costs, in milliseconds, measured in a fresh process. */
export interface StartupTiming {
  /** Declaring the tools: phantom's decorators running (at import time in an application). */
  readonly declareMs: number;
  /** Building the server from them: phantom's scan and compile; the SDK's `registerTool` calls. */
  readonly startMs: number;
}

/** Every tool the server lists, page by page (the public API). */
async function toolCount(server: PhantomServer): Promise<number> {
  let count = 0;
  let cursor: unknown;
  do {
    const page = await server.handle('tools/list', cursor === undefined ? {} : { cursor });
    if (!('result' in page)) throw new Error(`tools/list failed: ${page.error.message}`);
    count += (page.result.tools as unknown[]).length;
    cursor = page.result.nextCursor;
  } while (cursor !== undefined);
  return count;
}

runContender(async () => {
  const tools = argNumber('tools');
  const framework = argValue('framework');
  let timing: StartupTiming;
  if (framework === 'phantom') {
    const t0 = performance.now();
    const providers = toolProviders(tools);
    const t1 = performance.now();
    const server = new PhantomServer({ name: 'bench', version: '1.0.0', providers });
    const t2 = performance.now();
    const count = await toolCount(server);
    // The fixtures serve the realistic `register` tool beside the `tools` asked for.
    if (count !== tools + 1) throw new Error(`expected ${tools + 1} tools, got ${count}`);
    timing = { declareMs: t1 - t0, startMs: t2 - t1 };
  } else if (framework === 'sdk') {
    const t0 = performance.now();
    sdkServer({ tools, templates: 0 });
    timing = { declareMs: 0, startMs: performance.now() - t0 };
  } else {
    throw new Error('--framework must be phantom or sdk');
  }
  serveBench({ detail: timing });
});
