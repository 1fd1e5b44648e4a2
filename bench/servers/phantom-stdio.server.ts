import 'reflect-metadata';
import { PhantomServer, StdioTransport } from 'phantom-mcp';
import { EchoTools } from '../fixtures/phantom.fixtures';
import { runContender, serveBench } from './bench-channel';

/** phantom-mcp over stdio, as `server.connect(new StdioTransport())` serves a desktop client. */
runContender(async () => {
  const server = new PhantomServer({ name: 'bench', version: '1.0.0', providers: [EchoTools] });
  await server.connect(new StdioTransport());
  serveBench({}, { stop: () => server.close() });
});
