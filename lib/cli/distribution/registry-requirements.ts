import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { PackageFacts, ServerFacts } from './server-facts';

/** What the registry takes from a package and its server, once checked. */
export interface RegistryIdentity {
  /** package.json `mcpName`: `server.json`'s `name`. */
  readonly name: string;
  /** package.json `name`: the npm package's identifier. */
  readonly packageName: string;
  /** The server's version, which is package.json's. */
  readonly version: string;
  /** The server's `description` option, else package.json's. */
  readonly description: string;
}

/** package.json or the server lacks what the registry needs: every problem, one line each, each saying what to set. */
export class RegistryRefusal extends Error {
  override readonly name = 'RegistryRefusal';

  /** @param problems one line each. */
  constructor(readonly problems: readonly string[]) {
    super(`the registry needs more than the package and its server say:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
  }
}

/** The registry's limits (schema 2025-12-11: ServerDetail). */
const NAME = /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/;
const MAX_NAME = 200;
const MAX_DESCRIPTION = 100;
const MAX_TITLE = 100;

/** One exact semantic version (semver.org 2.0.0): what npm publishes and the registry sorts. */
const EXACT_VERSION = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$/;

/** What marks a version as a range (`^1.2.3`, `~1`, `>=1`, `1.x`, `1.*`, `1 - 2`, `a || b`) or a tag. */
const RANGE = /[\^~<>=*|\s]|(?:^|\.)[xX](?:\.|$)|^latest$/;

/**
 * Checks that the module's package and server give the registry all it needs, and reads it; a
 * `RegistryRefusal` lists every problem at once.
 */
export function registryIdentity(facts: ServerFacts): RegistryIdentity {
  const pkg = facts.package;
  if (pkg === undefined) throw new RegistryRefusal([`no package.json at or above ${facts.module}: the registry lists published packages, so the server needs one`]);
  const problems = [
    ...nameProblems(pkg),
    ...packageProblems(pkg),
    ...versionProblems(facts.info.version, pkg.version),
    ...binProblems(pkg),
    ...titleProblems(facts.info.title),
  ];
  const description = descriptionOf(facts, problems);
  if (problems.length) throw new RegistryRefusal(problems);
  return { name: pkg.mcpName!, packageName: pkg.name!, version: pkg.version!, description };
}

function nameProblems(pkg: PackageFacts): string[] {
  const { mcpName } = pkg;
  if (mcpName === undefined) {
    return ['package.json has no "mcpName": add the server\'s registry name, e.g. "mcpName": "io.github.<your GitHub user>/<server>" (the registry checks it against the published package, so it must be there before npm publish)'];
  }
  if (!NAME.test(mcpName) || mcpName.length < 3 || mcpName.length > MAX_NAME) {
    return [`package.json "mcpName" ${JSON.stringify(mcpName)} is not a registry name: a namespace, one "/", a name (letters, digits, ".", "-", "_"; 3 to ${MAX_NAME} characters), e.g. io.github.<your GitHub user>/<server> or com.example/<server> for a domain you own`];
  }
  return [];
}

function packageProblems(pkg: PackageFacts): string[] {
  const problems: string[] = [];
  if (pkg.name === undefined) problems.push('package.json has no "name": server.json names the npm package clients run with npx');
  if (pkg.json.private === true) problems.push('package.json says "private": true, so npm will not publish it: remove it (the registry lists published packages only)');
  return problems;
}

function versionProblems(server: string, pkg: string | undefined): string[] {
  if (pkg === undefined) return ['package.json has no "version": server.json carries the published version'];
  const problems = [...exactVersionProblems(`the server's version option`, server), ...exactVersionProblems('package.json "version"', pkg)];
  if (!problems.length && server !== pkg) {
    problems.push(`the server's version option (${server}) differs from package.json "version" (${pkg}): server.json has one version for both, so make them equal (e.g. read the version from package.json)`);
  }
  return problems;
}

function exactVersionProblems(label: string, version: string): string[] {
  if (EXACT_VERSION.test(version)) return [];
  if (RANGE.test(version)) return [`${label} ${JSON.stringify(version)} is a range or a tag; the registry needs one exact version, e.g. 1.0.0`];
  return [`${label} ${JSON.stringify(version)} is not an exact semantic version (major.minor.patch, e.g. 1.0.0), which npm publishes and the registry sorts`];
}

/**
 * `npx <package>` runs the package's only binary, or the one named after it (without its scope):
 * that binary must serve the server over stdio.
 */
function binProblems(pkg: PackageFacts): string[] {
  const unscoped = (pkg.name ?? 'server').replace(/^@[^/]+\//, '');
  const how = `a compiled stdio.ts that starts with the line #!/usr/bin/env node and runs: await server.connect(new StdioTransport())`;
  const entries = Object.entries(pkg.bin);
  if (!entries.length) {
    return [`package.json has no "bin": clients start the server with npx ${pkg.name ?? '<package>'}, which runs the package's binary; add one that serves over stdio, e.g. "bin": { "${unscoped}": "dist/stdio.js" }, ${how}`];
  }
  const chosen = entries.length === 1 ? entries[0] : entries.find(([name]) => name === unscoped);
  if (!chosen) return [`package.json "bin" has several entries (${entries.map(([name]) => name).join(', ')}) and none named "${unscoped}": npx runs the one named after the package, so name the stdio one "${unscoped}"`];
  const [name, target] = chosen;
  const file = resolve(pkg.dir, target);
  if (!statSync(file, { throwIfNoEntry: false })?.isFile()) return [`package.json "bin" ${name} is ${target}, which does not exist: build first, or point it at ${how}`];
  if (!readFileSync(file, 'utf8').startsWith('#!')) {
    return [`package.json "bin" ${name} (${target}) does not start with #!/usr/bin/env node: npm links it as a command, which without that line is not run by node; put the line first in its .ts source (tsc keeps it)`];
  }
  return [];
}

function titleProblems(title: string | undefined): string[] {
  if (title === undefined || (title.length >= 1 && title.length <= MAX_TITLE)) return [];
  return [`the server's title option is ${title.length} characters; the registry takes 1 to ${MAX_TITLE}: shorten it`];
}

/** The server's description option, else package.json's; a problem when neither fits. */
function descriptionOf(facts: ServerFacts, problems: string[]): string {
  const own = facts.info.description?.trim();
  const description = own || facts.package?.description?.trim();
  if (!description) {
    problems.push(`no description: set the server's description option (new PhantomServer({ description: '...' })) or "description" in package.json, in at most ${MAX_DESCRIPTION} characters`);
    return '';
  }
  if (description.length > MAX_DESCRIPTION) {
    problems.push(own
      ? `the server's description option is ${description.length} characters; the registry takes at most ${MAX_DESCRIPTION}: shorten it`
      : `package.json "description" is ${description.length} characters; the registry takes at most ${MAX_DESCRIPTION}: set a shorter one in the server's description option (it is used first), or shorten package.json's`);
  }
  return description;
}
