import type { CatalogSkill, SkillEntry, SkillFile, SkillResourceEntry } from './skill-model';

/** What changed between two catalogs, by skill name. */
export interface CatalogChanges {
  readonly added: readonly string[];
  readonly removed: readonly string[];
  readonly changed: readonly string[];
}

function compareUris(a: CatalogSkill, b: CatalogSkill): number {
  return a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0;
}

/**
 * The skills served at one moment, immutable: the extension swaps a whole catalog for another,
 * so a request sees one catalog from start to end. Skills are kept in URI order (the listing's).
 */
export class SkillCatalog {
  /** Every skill, by URI of its `SKILL.md`. */
  readonly ordered: readonly CatalogSkill[];
  private readonly byName: ReadonlyMap<string, CatalogSkill>;

  constructor(skills: Iterable<CatalogSkill>) {
    this.ordered = Object.freeze([...skills].sort(compareUris));
    this.byName = new Map(this.ordered.map((skill) => [skill.name, skill]));
  }

  /** The skill named `name`, if served. */
  get(name: string): CatalogSkill | undefined {
    return this.byName.get(name);
  }

  /** The skills named `name` and the rest. */
  with(skill: CatalogSkill): SkillCatalog {
    return new SkillCatalog([...this.ordered.filter((other) => other.name !== skill.name), skill]);
  }

  /** The skills but the one named `name`. */
  without(name: string): SkillCatalog {
    return new SkillCatalog(this.ordered.filter((skill) => skill.name !== name));
  }

  /** What `next` adds, removes and changes of this catalog (a skill changes when its files, front matter or scopes do). */
  changesTo(next: SkillCatalog): CatalogChanges {
    const added: string[] = [];
    const changed: string[] = [];
    for (const skill of next.ordered) {
      const before = this.byName.get(skill.name);
      if (before === undefined) added.push(skill.name);
      else if (fingerprintOf(before) !== fingerprintOf(skill)) changed.push(skill.name);
    }
    const removed = this.ordered.filter((skill) => !next.byName.has(skill.name)).map((skill) => skill.name);
    return { added, removed, changed };
  }
}

/** What identifies a skill's published state: a folder skill's files and front matter, any skill's scopes and origin. */
function fingerprintOf(skill: CatalogSkill): string {
  const content = skill.content.kind === 'static' ? skill.content.fingerprint : JSON.stringify(skill.frontmatter);
  return JSON.stringify([skill.origin, skill.scopes, content]);
}

/** Entries already built: a skill is immutable and named by one extension's URIs, so its entry never changes. */
const ENTRIES = new WeakMap<CatalogSkill, SkillEntry>();

/** The entry `skills/list` and `skills/get` give for `skill`, its resources named by `fileUri` (built once per skill). */
export function entryOf(skill: CatalogSkill, fileUri: (name: string, path: string) => string): SkillEntry {
  let entry = ENTRIES.get(skill);
  if (entry === undefined) {
    entry = skill.content.kind === 'dynamic'
      ? { uri: skill.uri, frontmatter: skill.frontmatter, resources: 'dynamic' }
      : { uri: skill.uri, frontmatter: skill.frontmatter, resources: manifestOf(skill, skill.content.files.values(), fileUri) };
    ENTRIES.set(skill, entry);
  }
  return entry;
}

function manifestOf(skill: CatalogSkill, files: Iterable<SkillFile>, fileUri: (name: string, path: string) => string): SkillResourceEntry[] {
  return [...files]
    .map((file) => ({ uri: fileUri(skill.name, file.path), digest: file.digest, size: file.size }))
    .sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0));
}
