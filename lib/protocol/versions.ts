/** Protocol revisions of the session era, newest first. */
export const SESSION_ERA_VERSIONS = Object.freeze(['2025-11-25', '2025-06-18', '2025-03-26'] as const);
export type SessionEraVersion = (typeof SESSION_ERA_VERSIONS)[number];

export const LATEST_SESSION_VERSION: SessionEraVersion = SESSION_ERA_VERSIONS[0];

export function isSessionEraVersion(version: unknown): version is SessionEraVersion {
  return (SESSION_ERA_VERSIONS as readonly unknown[]).includes(version);
}

/** The client's version when we speak it, else our newest: the client then decides. */
export function negotiateVersion(requested: unknown): SessionEraVersion {
  return isSessionEraVersion(requested) ? requested : LATEST_SESSION_VERSION;
}

/**
 * Whether a session at `version` takes JSON-RPC batches: 2025-03-26 requires receiving them;
 * 2025-06-18 removed them, and later revisions keep them out.
 */
export function allowsBatches(version: string): boolean {
  return version === '2025-03-26';
}
