import { basename, resolve } from 'node:path';

/** What npm accepts as a package name (lower case, URL-safe, at most 214 characters). */
const PACKAGE_NAME = /^(?:@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/;

/**
 * What the MCP registry accepts as a server name (server.json `name`, 3 to 200 characters): a
 * reverse-DNS namespace, one slash, the server's own name. The registry checks that the npm
 * package's `mcpName` is exactly this name.
 */
const MCP_NAME = /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/;

export const USAGE = `Usage: npm create phantom-mcp@latest <directory> [-- --name <package name>]
       create-phantom-mcp <directory> [--name <package name>] [--phantom <version | path>] [--mcp-name <name>]
       npm run create -- <directory>      (from a clone of phantom-mcp: builds, packs, generates)

Creates an MCP server project in <directory> (new, or empty): one tool, one resource, one spec,
with the TypeScript settings phantom-mcp needs. Then: cd <directory> && npm install && npm test.

  --name      the package name (default: the directory's name)
  --phantom   the phantom-mcp the project depends on (default: ^<this generator's version>, from npm):
                a version or range, e.g. ^0.1.0
                a path to a phantom-mcp checkout that is built (npm run build): packed with npm pack
                a path to a tarball npm pack made (file:<path> works too)
              a checkout or tarball is copied into <directory>/vendor/ and the project depends on
              file:vendor/<tarball>, so it installs without phantom-mcp on the npm registry
  --mcp-name  the project's name on the MCP registry, e.g. io.github.<you>/<server>: written to
              package.json as mcpName, which the registry checks before it lists the npm package
  --help      this text`;

/** Where the project's phantom-mcp comes from. */
export type PhantomSource =
  | { readonly kind: 'registry'; readonly range: string }
  | { readonly kind: 'local'; readonly path: string };

export interface Options {
  readonly directory: string;
  readonly name: string;
  readonly phantom: PhantomSource;
  readonly mcpName?: string;
}

/** Bad usage: the exit code and the message; 0 for --help. */
export interface Refusal {
  readonly code: number;
  readonly message: string;
}

const FLAGS = new Set(['name', 'phantom', 'mcp-name']);

/** A path rather than a version: what starts like one, names a tarball, or says file:. */
function phantomSource(value: string): PhantomSource {
  if (value.startsWith('file:')) return { kind: 'local', path: resolve(value.slice('file:'.length)) };
  if (/^(\.{1,2}([/\\]|$)|[/\\~]|[A-Za-z]:[/\\])/.test(value) || value.endsWith('.tgz')) return { kind: 'local', path: resolve(value) };
  return { kind: 'registry', range: value };
}

/** The options, or the exit code and message of bad usage. */
export function parse(argv: readonly string[], ownVersion: string): Options | Refusal {
  if (argv.includes('--help') || argv.includes('-h')) return { code: 0, message: USAGE };
  const positional: string[] = [];
  const flags: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    const flag = arg.slice(2);
    const value = argv[i + 1];
    if (!FLAGS.has(flag) || value === undefined || value.startsWith('--')) return { code: 2, message: `Unknown or incomplete option ${arg}\n\n${USAGE}` };
    flags[flag] = value;
    i += 1;
  }
  if (positional.length !== 1) return { code: 2, message: `Give one directory\n\n${USAGE}` };
  const directory = resolve(positional[0]);
  const name = flags.name ?? basename(directory).toLowerCase();
  if (!PACKAGE_NAME.test(name) || name.length > 214) return { code: 2, message: `"${name}" is no valid package name: give one with --name\n\n${USAGE}` };
  const mcpName = flags['mcp-name'];
  if (mcpName !== undefined && (!MCP_NAME.test(mcpName) || mcpName.length < 3 || mcpName.length > 200)) {
    return { code: 2, message: `"${mcpName}" is no MCP registry name: give namespace/name, e.g. io.github.<you>/${name.replace(/^@[^/]*\//, '')}\n\n${USAGE}` };
  }
  return { directory, name, phantom: phantomSource(flags.phantom ?? `^${ownVersion}`), ...(mcpName === undefined ? {} : { mcpName }) };
}
