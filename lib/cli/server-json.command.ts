import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError, valueFlag, type ParsedArguments } from './arguments';
import { EXIT, type CliIo, type Command } from './command';
import { mcpbUrlProblem, ociReferenceProblem, remoteUrlProblem, sha256Problem } from './distribution/registry-packages';
import { RegistryRefusal } from './distribution/registry-requirements';
import { REGISTRY_SCHEMA } from './distribution/registry-schema';
import { serverFacts } from './distribution/server-facts';
import { serverJson, ServerJsonBug, type ServerJson, type ServerJsonExtras, type ServerJsonOutcome } from './distribution/server-json';
import { serverJsonDrift } from './distribution/server-json-drift';

export const serverJsonCommand: Command = {
  name: 'server-json',
  summary: 'print or write the MCP registry\'s server.json; --check a committed one for drift',
  usage: `Usage: phantom-mcp server-json <module> [--out server.json] [--oci IMAGE:TAG] [--mcpb URL --sha256 HEX]
                               [--remote URL] [--check server.json] [--export <name>]

Prints the server.json the MCP registry publishes (schema ${REGISTRY_SCHEMA.version}), made from the
server and its package.json: name from "mcpName", description from the server's description
option (else package.json's; at most 100 characters), version (the server's, which must be
package.json's), title, websiteUrl (else "homepage"), https icons, repository (GitHub or GitLab),
and the npm package, run with npx over stdio, with the environment variables the server declares.
Refuses, listing everything to set, when package.json has no "mcpName", "name" or exact "version",
or no "bin" that npx can run (a compiled file starting with #!/usr/bin/env node that serves the
server over stdio). What it writes is checked against the registry's schema first.

  --out <file>       write the file instead of printing it; a "_meta" already there is kept
  --oci <ref>        also an OCI image, by its full reference: ghcr.io/you/weather:1.0.0
  --mcpb <url>       also a desktop bundle released at this https URL; needs --sha256
  --sha256 <hex>     the bundle file's SHA-256 (openssl dgst -sha256 weather.mcpb)
  --remote <url>     also the https URL of a running server's Streamable HTTP endpoint
  --check <file>     compare a committed server.json with what the code makes now: exit 0 if
                     it is up to date, else 1 with a line per difference (for CI). "_meta" is
                     never compared; an OCI or mcpb package or a remote only when its flag is
                     given (the file's is kept otherwise, but an OCI package's environment is
                     compared), and "name" against package.json "mcpName"
  --export <name>    take this named export of the module instead of looking for one
`,
  positionals: ['module'],
  flags: { out: 'value', oci: 'value', mcpb: 'value', sha256: 'value', remote: 'value', check: 'value', export: 'value' },
  async run(args, io) {
    const extras = extrasFrom(args);
    const out = valueFlag(args, 'out');
    const check = valueFlag(args, 'check');
    if (out !== undefined && check !== undefined) throw new UsageError('--out writes the file and --check compares it: give one');
    const facts = await serverFacts(args.positionals.module, io.cwd, { exportName: valueFlag(args, 'export') });
    let made: ServerJsonOutcome;
    try {
      made = serverJson(facts, extras);
    } catch (error) {
      if (!(error instanceof RegistryRefusal) && !(error instanceof ServerJsonBug)) throw error;
      io.err(`phantom-mcp server-json: ${error.message}\n`);
      return EXIT.failed;
    }
    for (const note of made.notes) io.err(`note: ${note}\n`);
    if (check !== undefined) return checked(made.document, check, { mcpName: made.document.name, ...extras }, io);
    if (out === undefined) {
      io.out(text(made.document));
      return EXIT.ok;
    }
    const file = resolve(io.cwd, out);
    writeFileSync(file, text({ ...made.document, ...metaIn(file) }));
    io.err(`wrote ${out}: ${made.document.name} ${made.document.version}\n`);
    return EXIT.ok;
  },
};

/** --oci, --mcpb with --sha256, --remote: checked, or a `UsageError` saying what each takes. */
function extrasFrom(args: ParsedArguments): ServerJsonExtras {
  const [oci, mcpb, sha256, remote] = ['oci', 'mcpb', 'sha256', 'remote'].map((name) => valueFlag(args, name));
  if ((mcpb === undefined) !== (sha256 === undefined)) throw new UsageError('--mcpb and --sha256 go together: the registry wants the bundle\'s hash');
  const problem = (oci === undefined ? undefined : ociReferenceProblem(oci))
    ?? (mcpb === undefined ? undefined : mcpbUrlProblem(mcpb) ?? sha256Problem(sha256!))
    ?? (remote === undefined ? undefined : remoteUrlProblem(remote));
  if (problem) throw new UsageError(problem);
  return { ...(oci === undefined ? {} : { oci }), ...(mcpb === undefined ? {} : { mcpb: { url: mcpb, sha256: sha256! } }), ...(remote === undefined ? {} : { remote }) };
}

function checked(expected: ServerJson, given: string, scope: { mcpName: string } & ServerJsonExtras, io: CliIo): number {
  const file = resolve(io.cwd, given);
  if (!existsSync(file)) {
    io.err(`phantom-mcp server-json: ${given} does not exist: write it with --out ${given}\n`);
    return EXIT.failed;
  }
  let committed: unknown;
  try {
    committed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    io.err(`phantom-mcp server-json: ${given} is not JSON (${(error as Error).message})\n`);
    return EXIT.failed;
  }
  const lines = serverJsonDrift(expected, committed, { file: given, mcpName: scope.mcpName, oci: scope.oci !== undefined, mcpb: scope.mcpb !== undefined, remote: scope.remote !== undefined });
  if (!lines.length) {
    io.out(`${given} is up to date\n`);
    return EXIT.ok;
  }
  const count = `${lines.length} ${lines.length === 1 ? 'difference' : 'differences'}`;
  io.err(`${given} differs from what the code makes (${count}); run the same command with --out ${given} instead of --check to rewrite it:\n${lines.map((line) => `  - ${line}\n`).join('')}`);
  return EXIT.failed;
}

/** The `_meta` of the file being replaced, kept: it is the publisher's, not the generator's. */
function metaIn(file: string): { _meta?: unknown } {
  if (!existsSync(file)) return {};
  try {
    const { _meta } = JSON.parse(readFileSync(file, 'utf8')) as { _meta?: unknown };
    return _meta === undefined ? {} : { _meta };
  } catch {
    return {};
  }
}

function text(document: object): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}
