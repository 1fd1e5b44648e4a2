import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { sdkServer } from '../fixtures/sdk.fixtures';
import { runContender, serveBench } from './bench-channel';

/** The official SDK over stdio, as its README connects a server to `StdioServerTransport`. */
runContender(async () => {
  const server = sdkServer({ tools: 1, templates: 0 });
  await server.connect(new StdioServerTransport());
  serveBench({}, { stop: () => server.close() });
});
