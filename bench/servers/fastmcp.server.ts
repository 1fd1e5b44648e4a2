import { FastMCP } from 'fastmcp';
import { echoSchema, fillerTool, registerSchema } from '../fixtures/peer.fixtures';
import { REGISTER_DESCRIPTION, registered } from '../fixtures/registration';
import { argNumber, argValue, runContender } from './bench-channel';
import { announceHttp, freePort } from './http-host';

/**
 * fastmcp over its `httpStream` transport, as its README starts it: `server.start` with a port
 * (sessions, the default), tools added with `addTool` and zod `parameters`, the template with
 * `addResourceTemplate`; `--stateless yes` sets its documented `httpStream.stateless` (no
 * session: each request served on its own). fastmcp listens itself and cannot report a port it did not choose, so the
 * bench finds a free one first.
 */
runContender(async () => {
  const tools = argNumber('tools', 1);
  const templates = argNumber('templates', 0);
  const server = new FastMCP({ name: 'bench', version: '1.0.0' });
  for (let i = 0; i < tools - 1; i++) {
    const filler = fillerTool(i);
    server.addTool({ name: filler.name, description: filler.description, parameters: filler.schema, execute: async ({ text }) => text });
  }
  server.addTool({ name: 'register', description: REGISTER_DESCRIPTION, parameters: registerSchema, execute: async (args) => registered(args) });
  server.addTool({
    name: 'echo',
    description: 'Sends the text back',
    parameters: echoSchema,
    annotations: { readOnlyHint: true },
    execute: async ({ text }) => text,
  });
  for (let i = 0; i < templates; i++) {
    const last = i === templates - 1;
    server.addResourceTemplate({
      uriTemplate: last ? 'bench://echo/{text}' : `bench://filler-${i}/{text}`,
      name: last ? 'echo' : `filler_${i}`,
      description: last ? 'Sends the text back' : `Generated template ${i}`,
      mimeType: 'text/plain',
      arguments: [{ name: 'text', description: 'The text to send back', required: true }],
      load: async ({ text }) => ({ text: String(text) }),
    });
  }
  const stateless = argValue('stateless', 'no') === 'yes';
  const port = await freePort();
  await server.start({ transportType: 'httpStream', httpStream: { port, host: '127.0.0.1', ...(stateless ? { stateless: true } : {}) } });
  announceHttp(`http://127.0.0.1:${port}/mcp`, () => server.stop());
});
