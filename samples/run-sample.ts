import { StdioTransport, type HttpOptions, type PhantomServer } from '../lib';

/**
 * How every sample starts when run directly: over stdio by default, or over Streamable HTTP with
 * `--http [--port N] [--host H]` (with `http`'s settings, e.g. `auth`). SIGINT and SIGTERM shut it
 * down gracefully on either.
 *
 * @example
 * node dist/samples/01-hello-tool/main.js                 # stdio, for a desktop client
 * node dist/samples/01-hello-tool/main.js --http --port 3000
 * REDIS_URL=redis://127.0.0.1:6379 node dist/samples/01-hello-tool/main.js --http --port 3001   # a replica (see storeFromEnv)
 */
export async function runSample(server: PhantomServer, argv: readonly string[] = process.argv.slice(2), http: HttpOptions = {}): Promise<void> {
  closeOnSignals(server);
  if (argv.includes('--http')) {
    const port = Number(valueOf(argv, '--port') ?? 3000);
    const host = valueOf(argv, '--host') ?? '127.0.0.1';
    const listener = await server.listen({ ...http, port, host });
    process.stderr.write(`${server.info.name} serving MCP at ${listener.url}\n`);
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

/**
 * The first SIGINT or SIGTERM closes the server: calls in flight finish (within the server's
 * `shutdownTimeoutMs`), then the process exits 0. A second signal exits at once, with 1.
 */
export function closeOnSignals(server: PhantomServer): void {
  let closing = false;
  const stop = (signal: NodeJS.Signals) => {
    if (closing) process.exit(1);
    closing = true;
    process.stderr.write(`${server.info.name}: ${signal}, finishing the calls in flight\n`);
    server.close().then(() => process.exit(0), (error: unknown) => {
      process.stderr.write(`${server.info.name}: shutdown failed: ${String(error)}\n`);
      process.exit(1);
    });
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

/** The value after `flag` in `argv`, if the flag is there. */
export function valueOf(argv: readonly string[], flag: string): string | undefined {
  const at = argv.indexOf(flag);
  return at === -1 ? undefined : argv[at + 1];
}
