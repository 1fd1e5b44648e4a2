import { StdioTransport, type PhantomServer } from '../lib';

/**
 * How every sample starts when run directly: over stdio by default, or over Streamable HTTP with
 * `--http [--port N] [--host H]`.
 *
 * @example
 * node dist/samples/01-hello-tool/main.js                 # stdio, for a desktop client
 * node dist/samples/01-hello-tool/main.js --http --port 3000
 */
export async function runSample(server: PhantomServer, argv: readonly string[] = process.argv.slice(2)): Promise<void> {
  if (argv.includes('--http')) {
    const port = Number(valueOf(argv, '--port') ?? 3000);
    const host = valueOf(argv, '--host') ?? '127.0.0.1';
    const listener = await server.listen({ port, host });
    process.stderr.write(`${server.info.name} serving MCP at ${listener.url}\n`);
    const stop = () => void listener.close().then(() => server.close()).then(() => process.exit(0));
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    return;
  }
  if (process.stdin.isTTY) {
    process.stderr.write(`${server.info.name} speaks MCP on stdin/stdout: start it from an MCP client, or add --http --port 3000\n`);
  }
  const connection = await server.connect(new StdioTransport());
  await connection.done;
  await server.close();
  process.exit(0);
}

function valueOf(argv: readonly string[], flag: string): string | undefined {
  const at = argv.indexOf(flag);
  return at === -1 ? undefined : argv[at + 1];
}
