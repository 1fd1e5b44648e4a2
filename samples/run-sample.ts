import type { HttpOptions, PhantomServer } from '../lib';
import { closeOnSignals as onSignalsClose, serve } from '../lib/cli/serving';

/**
 * How every sample starts when run directly: over stdio by default, or over Streamable HTTP with
 * `--http [--port N] [--host H]` (with `http`'s settings, e.g. `auth`). SIGINT and SIGTERM shut it
 * down gracefully on either. The same as `phantom-mcp serve` (lib/cli/serving.ts), which a
 * project gets from the package's binary instead.
 *
 * @example
 * node dist/samples/01-hello-tool/main.js                 # stdio, for a desktop client
 * node dist/samples/01-hello-tool/main.js --http --port 3000
 * REDIS_URL=redis://127.0.0.1:6379 node dist/samples/01-hello-tool/main.js --http --port 3001   # a replica (see storeFromEnv)
 */
export async function runSample(server: PhantomServer, argv: readonly string[] = process.argv.slice(2), http: HttpOptions = {}): Promise<void> {
  const port = valueOf(argv, '--port');
  try {
    await serve(server, { http: argv.includes('--http'), port: port === undefined ? undefined : Number(port), host: valueOf(argv, '--host'), httpOptions: http });
  } catch (error) {
    process.stderr.write(`${String(error instanceof Error ? error.message : error)}\n`);
    process.exit(1);
  }
  process.exit(0);
}

/**
 * The first SIGINT or SIGTERM closes the server: calls in flight finish (within the server's
 * `shutdownTimeoutMs`), then the process exits 0 (1 when closing fails). A second signal exits
 * at once, with 1. For samples that serve more than `runSample` does (04's page).
 */
export function closeOnSignals(server: PhantomServer): void {
  onSignalsClose(server, (line) => process.stderr.write(`${line}\n`)).then(() => process.exit(0), (error: unknown) => {
    process.stderr.write(`${String(error instanceof Error ? error.message : error)}\n`);
    process.exit(1);
  });
}

/** The value after `flag` in `argv`, if the flag is there. */
export function valueOf(argv: readonly string[], flag: string): string | undefined {
  const at = argv.indexOf(flag);
  return at === -1 ? undefined : argv[at + 1];
}
