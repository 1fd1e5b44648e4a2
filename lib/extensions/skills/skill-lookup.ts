import type { Context } from '../../context/context';
import type { CatalogSkill, SkillFiles } from './skill-model';
import type { SkillAccess } from './skill-access';
import type { SkillCatalog } from './skill-catalog';
import type { ParsedSkillUri, SkillUris } from './skill-uris';

/** A skill resource a caller may know: the skill and the path within its root (`''` for the root). */
export interface FoundSkillResource {
  readonly skill: CatalogSkill;
  readonly path: string;
}

/**
 * Answers "which skill, visible to this caller, does this URI name?" against the current catalog,
 * for every method and the resource template alike, so hidden skills are unknown everywhere.
 */
export class SkillLookup {
  constructor(
    private readonly current: () => SkillCatalog,
    readonly uris: SkillUris,
    readonly access: SkillAccess,
  ) {}

  /** The skills `principal` may know, in URI order. */
  visible(principal: unknown): CatalogSkill[] {
    return this.current().ordered.filter((skill) => this.access.visible(skill, principal));
  }

  /** What `uri` names, parsed (see `SkillUris#parse`). */
  parse(uri: string): ParsedSkillUri | undefined {
    return this.uris.parse(uri);
  }

  /** The skill whose `SKILL.md` is exactly `uri`, when `principal` may know it. */
  skillAt(uri: string, principal: unknown): CatalogSkill | undefined {
    const found = this.resource(uri, principal);
    return found !== undefined && found.skill.uri === uri ? found.skill : undefined;
  }

  /** The skill, visible to `principal`, that `uri` names a file or directory of. */
  resource(uri: string, principal: unknown): FoundSkillResource | undefined {
    const parsed = this.uris.parse(uri);
    if (parsed?.kind !== 'skill') return undefined;
    const skill = this.current().get(parsed.name);
    if (skill === undefined || !this.access.visible(skill, principal)) return undefined;
    return { skill, path: parsed.path };
  }

  /** A skill's files: those loaded (a folder's, an added one's), or those its `@Skill` method produces now. */
  files(skill: CatalogSkill, ctx: Context): Promise<SkillFiles> {
    return skill.content.kind === 'static' ? Promise.resolve(skill.content) : skill.content.produce(ctx);
  }
}
