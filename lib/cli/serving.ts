import { StdioTransport, type HttpOptions, type PhantomServer } from '../index';
import { CommandError } from './command';

/** How `serve` runs a server: over stdio, or over Streamable HTTP on `host:port`. */
export interface ServeSettings {
  readonly http: boolean;
  /** Default 3000; 0 picks a free port. */
  readonly port?: number;
  /** Default 127.0.0.1. */
  readonly host?: string;
  /** The HTTP transport's settings (`auth`, limits), with `--http`. */
  readonly httpOptions?: HttpOptions;
  /** Where the lines for the operator go (default: stderr; stdout may be the MCP pipe). */
  readonly log?: (line: string) => void;
}

/**
 * Serves until the server is closed, then resolves: over stdio when the client ends the pipe,
 * on either transport at the first SIGINT or SIGTERM (calls in flight finish within the server's
 * `shutdownTimeoutMs`). A second signal exits at once with 1. Rejects when closing fails.
 */
export async function serve(server: PhantomServer, settings: ServeSettings): Promise<void> {
  const log = settings.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const closed = closeOnSignals(server, log);
  if (settings.http) {
    const port = settings.port ?? 3000;
    const host = settings.host ?? '127.0.0.1';
    const listener = await server.listen({ ...settings.httpOptions, port, host }).catch((error: NodeJS.ErrnoException) => {
      // What the operator can act on, in one line, rather than the stack of a listen() call.
      if (error.code === 'EADDRINUSE') throw new CommandError(`${host}:${port} is in use by another process: stop it, or pick another port with --port`);
      if (error.code === 'EACCES') throw new CommandError(`${host}:${port} may not be listened on by this user: pick a port above 1023 with --port`);
      throw error;
    });
    log(`${server.info.name} serving MCP at ${listener.url}`);
    return closed;
  }
  if (process.stdin.isTTY) log(`${server.info.name} speaks MCP on stdin/stdout: start it from an MCP client, or add --http --port 3000`);
  const connection = await server.connect(new StdioTransport());
  await Promise.race([connection.done, closed]);
  await server.close();
}

/** Settles once a signal has closed the server (a second signal exits at once, with 1). */
export function closeOnSignals(server: PhantomServer, log: (line: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    let closing = false;
    const stop = (signal: NodeJS.Signals) => {
      if (closing) process.exit(1);
      closing = true;
      log(`${server.info.name}: ${signal}, finishing the calls in flight`);
      server.close().then(resolve, (error: unknown) => reject(new Error(`${server.info.name}: shutdown failed: ${String(error)}`, { cause: error })));
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
