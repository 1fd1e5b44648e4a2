import { dirname } from 'node:path';
import { isRegistryName } from '../../entries/http';
import { UsageError, valueFlag } from '../arguments';
import { EXIT, type Command } from '../command';
import { loadServer, modulePath } from '../server-module';
import { nearestPackage } from './server-facts';

export const cardCommand: Command = {
  name: 'card',
  summary: 'print the server card of the server at a URL, for hosting it as a static file',
  usage: `Usage: phantom-mcp card <module> --url <endpoint URL> [--name <registry name>] [--oauth] [--export <name>]

Prints the server card (the experimental-ext-server-card extension, SEP-2127) that listen() and
the handlers serve at <endpoint>/server-card, for an endpoint at --url: to host it elsewhere
(a static site, a CDN, an AI Catalog entry's "data"). It holds the server's name, version,
description, title, website and icons, and the endpoint with the protocol versions this
phantom-mcp serves; never its tools, prompts or resources.

  --url <url>     the Streamable HTTP endpoint's public URL (required), e.g. https://mcp.example.com/mcp
  --name <n>      the registry name, namespace/name (default: the server's name when it has that
                  form, else "mcpName" of the module's package.json)
  --oauth         the endpoint is an OAuth resource server: the card names the Authorization header
  --export <name> take this named export of the module instead of looking for one

Exits 1 saying what is missing when the server has no registry name or no description (the
server option description, 1 to 100 characters).
`,
  positionals: ['module'],
  flags: { url: 'value', name: 'value', oauth: 'switch', export: 'value' },
  async run(args, io) {
    const url = valueFlag(args, 'url');
    if (url === undefined) throw new UsageError('--url is required: the endpoint\'s public URL, e.g. https://mcp.example.com/mcp');
    if (!isHttpUrl(url)) throw new UsageError(`--url must be an absolute http(s) URL; got ${JSON.stringify(url)}`);
    const module = modulePath(args.positionals.module, io.cwd);
    const server = await loadServer(module, io.cwd, { exportName: valueFlag(args, 'export') });
    try {
      const name = valueFlag(args, 'name') ?? (isRegistryName(server.info.name) ? undefined : nearestPackage(dirname(module))?.mcpName);
      const card = server.serverCard({ url, bearer: args.flags.oauth === true, ...(name === undefined ? {} : { name }) });
      io.out(`${JSON.stringify(card, null, 2)}\n`);
      return EXIT.ok;
    } catch (error) {
      // What the server lacks, or a malformed --name: said in one line, without a stack.
      // By name: the module's server may come from its own copy of the framework.
      const { name: kind, code } = error as { name?: unknown; code?: unknown };
      if (!(kind === 'PhantomError' && typeof code === 'string' && code.startsWith('server_card_'))) throw error;
      io.err(`phantom-mcp card: ${(error as Error).message}\n`);
      return EXIT.failed;
    } finally {
      await server.close();
    }
  },
};

function isHttpUrl(text: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(text).protocol);
  } catch {
    return false;
  }
}
