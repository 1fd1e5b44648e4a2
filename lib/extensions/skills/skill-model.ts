import type { Context } from '../../context/context';
import type { JsonObject } from '../../core/wire.types';
import type { SkillTree } from './skill-tree';

/** One file of a skill whose content is known in advance, with what its entry publishes about it. */
export interface SkillFile {
  /** Its path relative to the skill's root, `/`-separated (`SKILL.md`, `references/forms.md`). */
  readonly path: string;
  readonly size: number;
  /** `sha256:` and 64 lowercase hex digits of its raw bytes. */
  readonly digest: string;
  readonly mimeType: string;
  /** Where its bytes are: held in memory, or on disk (read, and checked against `size` and `digest`, at each read). */
  readonly source: { readonly bytes: Uint8Array } | { readonly absolutePath: string };
}

/** The files of a skill and the directories they make. */
export interface SkillFiles {
  readonly files: ReadonlyMap<string, SkillFile>;
  readonly tree: SkillTree;
}

/** Where a skill came from: a skills folder, `add()`, or a `@Skill` method. */
export type SkillOrigin = 'folder' | 'added' | 'provider';

/** A skill the catalog serves. */
export interface CatalogSkill {
  readonly name: string;
  /** The URI of its `SKILL.md`: how clients name it. */
  readonly uri: string;
  readonly frontmatter: JsonObject;
  /** OAuth scopes a caller needs to get or read it (none when empty). */
  readonly scopes: readonly string[];
  readonly origin: SkillOrigin;
  /** Its files, when known in advance (a folder's, an added one's); `produce` otherwise. */
  readonly content: StaticContent | DynamicContent;
}

/** Files known at load time: published with digests and sizes. */
export interface StaticContent extends SkillFiles {
  readonly kind: 'static';
  /** The directory its files are read from (a folder skill's), for the containment check at read time. */
  readonly root?: string;
  /** What changes when any file or the front matter does: compared by `reload()`. */
  readonly fingerprint: string;
}

/** Files generated at each read: published as `resources: "dynamic"`. */
export interface DynamicContent {
  readonly kind: 'dynamic';
  produce(ctx: Context): Promise<SkillFiles>;
}

/** One `{ uri, digest, size }` of an entry's `resources`. */
export interface SkillResourceEntry {
  readonly uri: string;
  readonly digest: string;
  readonly size: number;
}

/** A skill entry as `skills/list` and `skills/get` return it. */
export interface SkillEntry {
  readonly uri: string;
  readonly frontmatter: JsonObject;
  readonly resources: readonly SkillResourceEntry[] | 'dynamic';
}
