#!/usr/bin/env node
import { StdioTransport } from 'phantom-mcp';
import { createServer } from './server';

/** Over stdio for a desktop client (the default), or over HTTP with `--http [--port N]`. */
async function main(argv: string[]): Promise<void> {
  const server = createServer();
  const stop = () => void server.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  if (argv.includes('--http')) {
    const port = Number(argv[argv.indexOf('--port') + 1] ?? 3000);
    const listener = await server.listen({ port: argv.includes('--port') ? port : 3000 });
    process.stderr.write(`serving MCP at ${listener.url}\n`);
    return;
  }
  const connection = await server.connect(new StdioTransport());
  await connection.done;
  await server.close();
  process.exit(0);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
