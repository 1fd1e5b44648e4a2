import { join } from 'node:path';
import type { EnvironmentVariable } from '../../index';
import { UsageError, valueFlag, type ParsedArguments } from '../arguments';
import { CommandError, type CliIo } from '../command';
import { loadServer, modulePath } from '../server-module';
import { clientEntry } from './client-entry';
import { CLIENT_NAMES, CLIENTS, type ClientSpec } from './client-table';
import type { ServerChange } from './config-change';
import { stdioEntry, type ServerEntry } from './server-entry';

/** What `config` and `install` make from their command line: the client, the server's entry for it, and what is left to the user. */
export interface ClientRequest {
  readonly client: ClientSpec;
  readonly change: ServerChange;
  /** What the user must still do for the server to start, a line each. */
  readonly notes: readonly string[];
}

/** The flags `config` and `install` share. */
export const CLIENT_FLAGS = { client: 'value', name: 'value', export: 'value', http: 'value' } as const;

/** Their usage lines. */
export const CLIENT_FLAGS_USAGE = `  --client <c>    ${CLIENT_NAMES.join(', ')} (required)
  --name <n>      the server's key in the configuration (default: the server's name)
  --http <url>    the server at a Streamable HTTP URL instead of run over stdio (not Claude
                  Desktop, whose file has no such entry: add it there as a connector)
  --export <name> take this named export of the module instead of looking for one`;

/**
 * Reads `--client`, `--name`, `--http` and `--export`, loads the module (which checks it serves,
 * and names the server) and builds the client's entry: this node running this package's binary on
 * the module (absolute paths), or the URL.
 */
export async function clientRequest(args: ParsedArguments, io: CliIo): Promise<ClientRequest> {
  const client = clientOf(args);
  const url = httpUrl(args);
  if (url !== undefined && !client.http) throw new CommandError(client.noHttp ?? `${client.label} takes no HTTP servers`);
  const exportName = valueFlag(args, 'export');
  const module = modulePath(args.positionals.module, io.cwd);
  const server = await loadServer(module, io.cwd, { exportName });
  // A module built against an older copy of the framework declares no environment.
  const environment = (server as { environment?: readonly EnvironmentVariable[] }).environment ?? [];
  await server.close();
  const name = valueFlag(args, 'name') ?? server.info.name;
  if (name === '') throw new UsageError('--name must not be empty');
  const entry: ServerEntry = url === undefined
    ? stdioEntry(module, exportName, environment, { node: process.execPath, cli: join(__dirname, '..', 'main.js') })
    : { transport: 'http', url };
  const shaped = clientEntry(client, name, entry);
  return { client, change: { key: client.key, name, entry: shaped.entry, inputs: shaped.inputs }, notes: shaped.notes };
}

/** The client `--client` names, or a `UsageError`. */
export function clientOf(args: ParsedArguments): ClientSpec {
  const name = valueFlag(args, 'client');
  if (name === undefined) throw new UsageError(`--client is required: ${CLIENT_NAMES.join(', ')}`);
  const client = CLIENTS.get(name);
  if (!client) throw new UsageError(`--client must be one of ${CLIENT_NAMES.join(', ')}; got ${JSON.stringify(name)}`);
  return client;
}

function httpUrl(args: ParsedArguments): string | undefined {
  const text = valueFlag(args, 'http');
  if (text === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`--http must be an http:// or https:// URL; got ${JSON.stringify(text)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--http must be an http:// or https:// URL; got ${JSON.stringify(text)}`);
  return text;
}
