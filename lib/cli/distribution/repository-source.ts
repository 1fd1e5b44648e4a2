import type { PackageFacts } from './server-facts';

/** `server.json`'s `repository`: a browsable URL and the forge that hosts it. */
export interface RegistryRepository {
  readonly url: string;
  readonly source: string;
  /** The package's folder in a monorepo (package.json `repository.directory`). */
  readonly subfolder?: string;
}

/** The forges the registry knows by host; others are left out of `server.json`. */
const SOURCES: ReadonlyMap<string, string> = new Map([['github.com', 'github'], ['gitlab.com', 'gitlab']]);

/** npm's shorthands (`github:user/repo`, `gitlab:user/repo`, bare `user/repo` for GitHub). */
const SHORTHAND = /^(?:(github|gitlab):)?([\w.-]+\/[\w.-]+)$/;

/** `git+https://`, `git://`, `git+ssh://git@` and `https://` URLs: host and path. */
const URL_FORM = /^(?:git\+)?(?:https?|git|ssh):\/\/(?:[^@/]+@)?([^/:]+)(?::\d+)?\/(.+?)(?:\.git)?\/?$/;

/** scp-like `git@host:user/repo.git`. */
const SCP_FORM = /^[^@/]+@([^:/]+):(.+?)(?:\.git)?\/?$/;

/**
 * package.json `repository` as the registry wants it (`https://host/owner/repo`, its `source`),
 * or a sentence saying why it is left out: no repository, or a host other than GitHub or GitLab.
 */
export function registryRepository(repository: PackageFacts['repository']): RegistryRepository | string {
  if (repository === undefined) return 'package.json has no "repository": server.json goes without one (the registry recommends it)';
  const found = hostAndPath(repository.url.trim());
  const source = found && SOURCES.get(found.host.toLowerCase());
  if (!found || !source) return `package.json "repository" (${repository.url}) is not on GitHub or GitLab: server.json goes without one`;
  const subfolder = repository.directory?.replace(/^\.?\/+|\/+$/g, '');
  return { url: `https://${found.host.toLowerCase()}/${found.path}`, source, ...(subfolder ? { subfolder } : {}) };
}

function hostAndPath(url: string): { host: string; path: string } | undefined {
  const short = SHORTHAND.exec(url);
  if (short) return { host: `${short[1] ?? 'github'}.com`, path: short[2] };
  const long = URL_FORM.exec(url) ?? SCP_FORM.exec(url);
  return long ? { host: long[1], path: long[2] } : undefined;
}
