import { DefinitionError } from '../../core/errors';
import type { JsonObject } from '../../core/wire.types';
import type { Extension, ExtensionHost, ExtensionMethod } from '../../router/extensions/extension';
import { frontMatterProblem } from './front-matter';
import { scanSkillFolders, type FolderSkillResult } from './folder-loader';
import { memoryFiles } from './memory-skill';
import { scanSkillProviders } from './provider-skills';
import { SkillAccess } from './skill-access';
import { SkillCatalog, type CatalogChanges } from './skill-catalog';
import { SkillLookup } from './skill-lookup';
import { skillMethods } from './skill-methods';
import type { CatalogSkill } from './skill-model';
import { skillNameProblem } from './skill-name';
import { skillResource } from './skill-resource';
import { prefixProblem, SkillUris } from './skill-uris';
import { resolveSkillsOptions, type ResolvedSkillsOptions, type SkillsOptions } from './skills-options';

export type { CatalogChanges as SkillChanges } from './skill-catalog';

/** The Skills extension's identifier. */
export const SKILLS_EXTENSION_ID = 'io.modelcontextprotocol/skills';

/**
 * A skill given as content, served as a folder skill is (published with digests): see
 * {@link SkillsExtension.add}.
 *
 * @example
 * extension.add({ name: 'release-notes', description: 'Write release notes our way', body: '# Release notes\n...', files: { 'examples/1.0.md': '...' } });
 */
export interface SkillDefinition {
  /** The skill's name (the naming rules of `@Skill`). */
  readonly name: string;
  readonly description: string;
  /** The `SKILL.md` body: the Markdown after the front matter, which is written from the other fields. */
  readonly body: string;
  /** Its other files, by path relative to its root. */
  readonly files?: Readonly<Record<string, string | Uint8Array>>;
  /** More front matter fields (`license`, `metadata`, ...); `name` and `description` come from above. */
  readonly frontmatter?: Readonly<JsonObject>;
  /** OAuth scopes a caller needs to get or read it. */
  readonly scopes?: readonly string[];
}

/**
 * The Skills extension (`io.modelcontextprotocol/skills`, SEP-2640), built on the public extension
 * API: `skills/list`, `skills/get`, `resources/directory/read`, and every skill file served as a
 * resource under `skill://`. Made by {@link skills}.
 */
export class SkillsExtension implements Extension {
  readonly id = SKILLS_EXTENSION_ID;
  readonly clientMustDeclare = false;
  readonly requires = ['resources'] as const;
  readonly methods: Readonly<Record<string, ExtensionMethod>>;
  private readonly options: ResolvedSkillsOptions;
  private readonly uris: SkillUris;
  private readonly lookup: SkillLookup;
  private host?: ExtensionHost;
  private catalog = new SkillCatalog([]);
  private folderSkills: readonly CatalogSkill[] = [];
  private providerSkills: readonly CatalogSkill[] = [];
  private readonly added = new Map<string, CatalogSkill>();
  private reloading: Promise<unknown> = Promise.resolve();

  constructor(options: SkillsOptions = {}) {
    this.options = resolveSkillsOptions(options);
    const problem = prefixProblem(this.options.prefix);
    if (problem !== undefined) throw new RangeError(`skills(): ${problem}`);
    this.uris = new SkillUris(this.options.prefix);
    const access = new SkillAccess({ isVisible: (item, principal) => this.requireHost().isVisible(item, principal) });
    this.lookup = new SkillLookup(() => this.catalog, this.uris, access);
    this.methods = Object.freeze(skillMethods(this.lookup, this.options));
  }

  /** `{ directoryRead: true }` when directory reads are served, `{}` otherwise: the same in both eras. */
  settings(): JsonObject {
    return this.options.directoryRead ? { directoryRead: true } : {};
  }

  /** Loads the folders and the providers (every problem at once, in one `DefinitionError`) and serves the skill resources. */
  async setup(host: ExtensionHost): Promise<void> {
    this.host = host;
    const providers = scanSkillProviders(this.options.providers, { uris: this.uris, limits: this.options.limits, resolve: (cls) => host.resolve(cls) });
    const folders = await this.scanFolders();
    const problems = [...providers.problems, ...folders.problems];
    this.providerSkills = providers.skills;
    const composed = this.compose(folders.skills, problems);
    if (problems.length > 0) throw new DefinitionError(problems.map((problem) => `skills: ${problem}`));
    this.folderSkills = folders.skills;
    this.catalog = composed;
    host.serveResources([skillResource(this.lookup, () => host.diagnostics, this.options.cache)]);
  }

  /**
   * Rescans the folders and swaps the catalog in one step: when any problem is found (and
   * `invalidSkills` is `'fail'`), nothing changes and the `DefinitionError` lists them all. A
   * changed listing is announced (`notifications/resources/list_changed`). Reloads run one at a time.
   */
  reload(): Promise<CatalogChanges> {
    const next = this.reloading.then(async () => {
      const folders = await this.scanFolders();
      const problems = [...folders.problems];
      const composed = this.compose(folders.skills, problems);
      if (problems.length > 0) throw new DefinitionError(problems.map((problem) => `skills: ${problem}`));
      this.folderSkills = folders.skills;
      return this.swap(composed);
    });
    this.reloading = next.catch(() => undefined);
    return next;
  }

  /**
   * Serves a skill given as content (replacing one added earlier under the same name), announced
   * as a change of the resource list. A bad definition, or a name a folder or provider already
   * serves, throws a `DefinitionError` and changes nothing. The skill lives in this process: behind
   * a load balancer, add it on every replica (folder skills are the same on each that reads the same folder).
   */
  add(definition: SkillDefinition): CatalogChanges {
    const skill = this.addedSkill(definition);
    const owner = [...this.folderSkills, ...this.providerSkills].find((other) => other.name === skill.name);
    if (owner !== undefined) throw new DefinitionError([`skills: the skill "${skill.name}" is already served (from a ${owner.origin})`]);
    this.added.set(skill.name, skill);
    return this.swap(this.catalog.with(skill));
  }

  /** Stops serving a skill added with `add`; `false` when there was none of that name. */
  remove(name: string): boolean {
    if (!this.added.delete(name)) return false;
    this.swap(this.catalog.without(name));
    return true;
  }

  /** The names of the skills served now, in URI order. */
  get names(): readonly string[] {
    return this.catalog.ordered.map((skill) => skill.name);
  }

  private swap(next: SkillCatalog): CatalogChanges {
    const changes = this.catalog.changesTo(next);
    this.catalog = next;
    if (changes.added.length + changes.removed.length + changes.changed.length > 0) this.host?.resourcesChanged();
    return changes;
  }

  /** The folders' skills; in `'skip'` mode an invalid one is left out with a warning, else its problems are returned. */
  private async scanFolders(): Promise<{ skills: CatalogSkill[]; problems: string[] }> {
    const scan = await scanSkillFolders(this.options.folders, { uris: this.uris, limits: this.options.limits, scopes: this.options.scopes });
    const problems = [...scan.folderProblems];
    const skills: CatalogSkill[] = [];
    const seen = new Set<string>();
    for (const result of scan.results) {
      const found = 'skill' in result ? this.duplicate(result, seen) : result.problems;
      if (found.length === 0 && 'skill' in result) {
        seen.add(result.skill.name);
        skills.push(result.skill);
      } else if (this.options.invalidSkills === 'skip') {
        for (const problem of found) this.host?.diagnostics.warn(`skills: skipped: ${problem}`);
      } else {
        problems.push(...found);
      }
    }
    return { skills, problems };
  }

  private duplicate(result: FolderSkillResult & { skill: CatalogSkill }, seen: ReadonlySet<string>): string[] {
    return seen.has(result.skill.name) ? [`skill "${result.skill.name}" is found in more than one skills folder`] : [];
  }

  /** The catalog of `folderSkills`, the providers' and the added ones; a name served twice is a problem. */
  private compose(folderSkills: readonly CatalogSkill[], problems: string[]): SkillCatalog {
    const byName = new Map<string, CatalogSkill>();
    for (const skill of [...folderSkills, ...this.providerSkills, ...this.added.values()]) {
      const other = byName.get(skill.name);
      if (other !== undefined) problems.push(`the skill "${skill.name}" is served both from a ${other.origin} and from a ${skill.origin}`);
      else byName.set(skill.name, skill);
    }
    return new SkillCatalog(byName.values());
  }

  private addedSkill(definition: SkillDefinition): CatalogSkill {
    const problems: string[] = [];
    const nameProblem = skillNameProblem(definition.name);
    if (nameProblem !== undefined) problems.push(nameProblem);
    const frontmatter: JsonObject = { ...(definition.frontmatter ?? {}), name: definition.name, description: definition.description };
    const described = frontMatterProblem(frontmatter);
    if (described !== undefined) problems.push(described);
    if (typeof definition.body !== 'string') problems.push('body must be a string');
    const built = problems.length === 0 ? memoryFiles(frontmatter, definition.body, definition.files ?? {}, this.options.limits) : undefined;
    if (built !== undefined && 'problems' in built) problems.push(...built.problems);
    if (problems.length > 0 || built === undefined || 'problems' in built) {
      throw new DefinitionError(problems.map((problem) => `skills: added skill "${String(definition.name)}": ${problem}`));
    }
    const files = built.files;
    const fingerprint = JSON.stringify([frontmatter, [...files.files.values()].map((file) => [file.path, file.digest]).sort()]);
    return {
      name: definition.name,
      uri: this.uris.skillMd(definition.name),
      frontmatter,
      scopes: [...(definition.scopes ?? [])],
      origin: 'added',
      content: { kind: 'static', ...files, fingerprint },
    };
  }

  private requireHost(): ExtensionHost {
    if (this.host === undefined) throw new Error('The skills extension is not set up: pass it in the server\'s extensions option');
    return this.host;
  }
}

/**
 * The Skills extension (`io.modelcontextprotocol/skills`): serves skills from folders of skill
 * directories and from `@Skill` methods, with `skills/list`, `skills/get`,
 * `resources/directory/read` and every file readable through `resources/read` under `skill://`.
 *
 * @example
 * const catalog = skills({ folder: './skills', providers: [ReportSkills] });
 * const server = new PhantomServer({ name: 'docs', version: '1.0.0', providers: [DocsTools], extensions: [catalog] });
 * await server.listen({ port: 3000 });
 * // later, after editing ./skills: const { added, removed, changed } = await catalog.reload();
 */
export function skills(options: SkillsOptions = {}): SkillsExtension {
  return new SkillsExtension(options);
}
