import type { Icon } from '../../index';
import { mcpbPackage, npmPackage, ociPackage, registryVariables, streamableRemote, type RegistryPackage, type RegistryRemote } from './registry-packages';
import { registryIdentity } from './registry-requirements';
import { REGISTRY_SCHEMA, registrySchemaProblems } from './registry-schema';
import { registryRepository, type RegistryRepository } from './repository-source';
import type { ServerFacts } from './server-facts';

/** A registry `server.json` as this package writes it (schema 2025-12-11, ServerDetail). */
export interface ServerJson {
  readonly $schema: string;
  readonly name: string;
  readonly title?: string;
  readonly description: string;
  readonly version: string;
  readonly websiteUrl?: string;
  readonly repository?: RegistryRepository;
  readonly icons?: readonly Icon[];
  readonly packages: readonly RegistryPackage[];
  readonly remotes?: readonly RegistryRemote[];
  /** The publisher's own: never written here, kept when a file is rewritten, ignored by `--check`. */
  readonly _meta?: Readonly<Record<string, unknown>>;
}

/** Where else, besides npm, the server can be had (the command's `--oci`, `--mcpb`, `--remote`). */
export interface ServerJsonExtras {
  /** A full OCI image reference with its tag or digest. */
  readonly oci?: string;
  /** A released desktop bundle: its https URL and sha256. */
  readonly mcpb?: { readonly url: string; readonly sha256: string };
  /** The https URL of a running server's Streamable HTTP endpoint. */
  readonly remote?: string;
}

/** The document, and what was left out of it and why (for stderr). */
export interface ServerJsonOutcome {
  readonly document: ServerJson;
  readonly notes: readonly string[];
}

/** The schema was broken by what this package wrote: a bug here, not a problem of the user's. */
export class ServerJsonBug extends Error {
  override readonly name = 'ServerJsonBug';
}

/** The registry's icon rules (Icon: https `src` of at most 255 characters, these MIME types, `WxH` or `any` sizes). */
const ICON_TYPES: ReadonlySet<string> = new Set(['image/png', 'image/jpeg', 'image/jpg', 'image/svg+xml', 'image/webp']);
const ICON_SIZE = /^(\d+x\d+|any)$/;

/**
 * The `server.json` a module's server and package make: refused (a `RegistryRefusal` listing
 * every problem) when package.json or the server lacks what the registry needs, and checked
 * against the pinned schema before it is returned (a `ServerJsonBug` if it fails).
 */
export function serverJson(facts: ServerFacts, extras: ServerJsonExtras = {}): ServerJsonOutcome {
  const identity = registryIdentity(facts);
  const notes: string[] = [];
  const repository = registryRepository(facts.package?.repository);
  if (typeof repository === 'string') notes.push(repository);
  const icons = registryIcons(facts.info.icons ?? [], notes);
  const websiteUrl = website(facts, notes);
  const variables = registryVariables(facts.environment);
  const packages = [
    npmPackage(identity.packageName, identity.version, variables),
    ...(extras.oci === undefined ? [] : [ociPackage(extras.oci, variables)]),
    ...(extras.mcpb === undefined ? [] : [mcpbPackage(extras.mcpb.url, extras.mcpb.sha256.toLowerCase())]),
  ];
  const document: ServerJson = {
    $schema: REGISTRY_SCHEMA.url,
    name: identity.name,
    ...(facts.info.title === undefined ? {} : { title: facts.info.title }),
    description: identity.description,
    version: identity.version,
    ...(websiteUrl === undefined ? {} : { websiteUrl }),
    ...(typeof repository === 'string' ? {} : { repository }),
    ...(icons.length ? { icons } : {}),
    packages,
    ...(extras.remote === undefined ? {} : { remotes: [streamableRemote(extras.remote)] }),
  };
  const problems = registrySchemaProblems(document);
  if (problems.length) throw new ServerJsonBug(`bug: the server.json written would not match the registry's schema ${REGISTRY_SCHEMA.version} (${problems.join('; ')}); please report it`);
  return { document, notes };
}

/** The server's icons the registry takes; each other one is noted and left out. */
function registryIcons(icons: readonly Icon[], notes: string[]): Icon[] {
  const kept: Icon[] = [];
  for (const icon of icons) {
    const shown = icon.src.length > 60 ? `${icon.src.slice(0, 57)}...` : icon.src;
    const why = !/^https:\/\/\S+$/.test(icon.src) ? 'the registry takes https URLs only (no data: URIs, no http)'
      : icon.src.length > 255 ? 'its URL is longer than the 255 characters the registry takes'
        : icon.mimeType !== undefined && !ICON_TYPES.has(icon.mimeType) ? `its mimeType ${icon.mimeType} is not one the registry takes (${[...ICON_TYPES].join(', ')})`
          : icon.sizes?.some((size) => !ICON_SIZE.test(size)) ? 'its sizes are not all WxH or "any"'
            : undefined;
    if (why) notes.push(`icon ${shown} left out: ${why}`);
    else kept.push({ src: icon.src, ...(icon.mimeType ? { mimeType: icon.mimeType } : {}), ...(icon.sizes ? { sizes: [...icon.sizes] } : {}), ...(icon.theme ? { theme: icon.theme } : {}) });
  }
  return kept;
}

/** The server's websiteUrl option, else package.json `homepage`, when it is an http(s) URL. */
function website(facts: ServerFacts, notes: string[]): string | undefined {
  const [label, url] = facts.info.websiteUrl !== undefined ? ['the server\'s websiteUrl option', facts.info.websiteUrl] : ['package.json "homepage"', facts.package?.homepage];
  if (url === undefined) return undefined;
  if (/^https?:\/\/\S+$/.test(url) && URL.canParse(url)) return url;
  notes.push(`${label} (${url}) is not an http(s) URL: server.json goes without a websiteUrl`);
  return undefined;
}
