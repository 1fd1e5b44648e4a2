import type { EnvironmentVariable } from '../../index';

/** One `environmentVariables` entry (the schema's KeyValueInput, as written here). */
export interface RegistryVariable {
  readonly name: string;
  readonly description: string;
  readonly isRequired: boolean;
  readonly isSecret: boolean;
  readonly format?: string;
  readonly default?: string;
  readonly choices?: readonly string[];
}

/** One `packages` entry: how a client fetches and runs the server. */
export interface RegistryPackage {
  readonly registryType: string;
  readonly registryBaseUrl?: string;
  readonly identifier: string;
  readonly version?: string;
  readonly fileSha256?: string;
  readonly runtimeHint?: string;
  readonly transport: { readonly type: 'stdio' };
  readonly environmentVariables?: readonly RegistryVariable[];
}

/** One `remotes` entry: where the server is already running. */
export interface RegistryRemote {
  readonly type: 'streamable-http';
  readonly url: string;
}

/** The only npm registry the official MCP registry accepts. */
const NPM_REGISTRY = 'https://registry.npmjs.org';

/** The server's declared environment, as the registry lists it. */
export function registryVariables(environment: readonly EnvironmentVariable[]): RegistryVariable[] {
  return environment.map((variable) => ({
    name: variable.name,
    description: variable.description,
    isRequired: variable.required === true,
    isSecret: variable.secret === true,
    ...(variable.format === undefined ? {} : { format: variable.format }),
    ...(variable.default === undefined ? {} : { default: variable.default }),
    ...(variable.choices === undefined ? {} : { choices: [...variable.choices] }),
  }));
}

/** Keeps `environmentVariables` out of an entry when the server declares none. */
function withVariables<T extends object>(entry: T, variables: readonly RegistryVariable[]): T {
  return variables.length ? { ...entry, environmentVariables: variables } : entry;
}

/** The npm package, run by `npx <name>` over stdio. */
export function npmPackage(name: string, version: string, variables: readonly RegistryVariable[]): RegistryPackage {
  return withVariables({ registryType: 'npm', registryBaseUrl: NPM_REGISTRY, identifier: name, version, runtimeHint: 'npx', transport: { type: 'stdio' as const } }, variables);
}

/** An OCI image (`docker run -i`), its version in its tag: the registry takes no `version` for one. */
export function ociPackage(reference: string, variables: readonly RegistryVariable[]): RegistryPackage {
  return withVariables({ registryType: 'oci', identifier: reference, transport: { type: 'stdio' as const } }, variables);
}

/**
 * A desktop bundle at a release URL, with its sha256 (clients check it before installing). Its
 * manifest asks for the environment itself (`user_config`), so the entry lists none.
 */
export function mcpbPackage(url: string, sha256: string): RegistryPackage {
  return { registryType: 'mcpb', identifier: url, fileSha256: sha256, transport: { type: 'stdio' } };
}

/** A running server's Streamable HTTP endpoint. */
export function streamableRemote(url: string): RegistryRemote {
  return { type: 'streamable-http', url };
}

/** `registry/namespace/repository:tag` or `…@sha256:<hex>`: a full reference, with its registry's host. */
const OCI_REFERENCE = /^[a-z0-9.-]+\.[a-z]+(?::\d+)?\/[a-z0-9._/-]+(?::[\w][\w.-]{0,127}|@sha256:[a-f0-9]{64})$/;

/** What is wrong with an `--oci` value, if anything. */
export function ociReferenceProblem(reference: string): string | undefined {
  if (OCI_REFERENCE.test(reference)) return undefined;
  return `--oci takes a full image reference with its registry and a tag or digest, e.g. ghcr.io/you/weather:1.0.0 or docker.io/you/weather@sha256:<hex>; got ${JSON.stringify(reference)}`;
}

/** What is wrong with an `--mcpb` URL, if anything: the registry takes https release URLs whose text says "mcp". */
export function mcpbUrlProblem(url: string): string | undefined {
  if (!isHttps(url)) return `--mcpb takes the https URL of the released .mcpb file; got ${JSON.stringify(url)}`;
  if (!url.toLowerCase().includes('mcp')) return `--mcpb ${url}: the registry wants "mcp" in the URL (the .mcpb extension or the repository's name)`;
  return undefined;
}

/** What is wrong with a `--sha256` value, if anything. */
export function sha256Problem(hex: string): string | undefined {
  return /^[a-fA-F0-9]{64}$/.test(hex) ? undefined : `--sha256 takes the file's SHA-256 as 64 hex digits (openssl dgst -sha256 <file>.mcpb); got ${JSON.stringify(hex)}`;
}

/** What is wrong with a `--remote` URL, if anything. */
export function remoteUrlProblem(url: string): string | undefined {
  return isHttps(url) && !/\s/.test(url) ? undefined : `--remote takes the https URL of the server's MCP endpoint, e.g. https://mcp.example.com/mcp; got ${JSON.stringify(url)}`;
}

function isHttps(url: string): boolean {
  try {
    return new URL(url).protocol === 'https:';
  } catch {
    return false;
  }
}
