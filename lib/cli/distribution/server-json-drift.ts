import { describeDifference, jsonDifferences, type ArrayKeys } from './json-differences';
import { registrySchemaProblems } from './registry-schema';
import type { ServerJson } from './server-json';

/** How server.json's arrays are matched item to item. */
const SERVER_JSON_KEYS: ArrayKeys = { packages: 'registryType', environmentVariables: 'name', headers: 'name', remotes: 'url', icons: 'src' };

/** What a check was told besides the module: which optional entries it generated itself. */
export interface DriftScope {
  /** The file's name, for the lines. */
  readonly file: string;
  /** package.json `mcpName`, which the file's `name` must be. */
  readonly mcpName: string;
  /** `--oci`, `--mcpb`, `--remote` given: those entries are compared; otherwise the file's are taken as they are. */
  readonly oci: boolean;
  readonly mcpb: boolean;
  readonly remote: boolean;
}

/**
 * How a committed `server.json` differs from what the code makes now, one readable line each;
 * empty when it is up to date.
 *
 * The generator owns every field but `_meta` (the publisher's, never compared). An OCI or mcpb
 * package, or a remote, is compared only when its flag is given to the check (its tag, URL and
 * hash change with each release, not with the code); otherwise the file's is kept, except the
 * environment variables of an OCI package, which are the server's and so are compared.
 */
export function serverJsonDrift(expected: ServerJson, committed: unknown, scope: DriftScope): string[] {
  if (typeof committed !== 'object' || committed === null || Array.isArray(committed)) return [`${scope.file} is not a JSON object`];
  const { _meta: _ignored, ...theirs } = committed as Record<string, unknown>;
  const ours = withTheirOptionalEntries(expected, theirs, scope);
  const lines = jsonDifferences(ours, theirs, SERVER_JSON_KEYS).map((difference) => {
    if (difference.path === 'name' && 'actual' in difference) {
      return `name: ${JSON.stringify(difference.actual)} in ${scope.file}, but package.json "mcpName" is ${JSON.stringify(scope.mcpName)}: the registry refuses a package whose mcpName is not the server's name`;
    }
    return describeDifference(difference, scope.file);
  });
  if (lines.length) return lines;
  // Only _meta can still be wrong: check the file as the registry will.
  return registrySchemaProblems(committed).map((problem) => `${scope.file} ${problem} (by the registry's schema)`);
}

/** The expected document, with the file's OCI/mcpb packages and remotes where no flag said what they are. */
function withTheirOptionalEntries(expected: ServerJson, theirs: Record<string, unknown>, scope: DriftScope): Record<string, unknown> {
  const { _meta: _none, ...ours } = expected;
  const theirPackages = Array.isArray(theirs.packages) ? theirs.packages.filter(isObject) : [];
  const variables = expected.packages.find((entry) => entry.registryType === 'npm')?.environmentVariables;
  const carried = theirPackages.flatMap((entry): object[] => {
    if (entry.registryType === 'oci' && !scope.oci) {
      const { environmentVariables: _old, ...rest } = entry;
      return [variables ? { ...rest, environmentVariables: variables } : rest];
    }
    return entry.registryType === 'mcpb' && !scope.mcpb ? [entry] : [];
  });
  const packages = [...expected.packages, ...carried];
  const remotes = !scope.remote && theirs.remotes !== undefined ? theirs.remotes : ours.remotes;
  return { ...ours, packages, ...(remotes === undefined ? {} : { remotes }) };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
