import type { JsonObject } from '../core/wire.types';

/**
 * Options of `@Skill`, kept exactly as written; the Skills extension checks them when the server
 * starts (every problem of every provider reported at once).
 */
export interface SkillOptions {
  /**
   * The skill's name, the last segment of its URI (`skill://<name>/SKILL.md`): 1 to 64 characters
   * of `a-z`, `0-9` and `-`, neither starting nor ending with `-`, without `--`.
   */
  readonly name: string;
  /** What the skill does and when to use it (the front matter's required `description`). */
  readonly description: string;
  /** OAuth scopes a caller must hold to get or read the skill (`InsufficientScopeError` otherwise). */
  readonly scopes?: readonly string[];
  /** The front matter's `metadata` map (string keys; keys under `io.modelcontextprotocol/` are reserved). */
  readonly metadata?: Readonly<JsonObject>;
}

/**
 * What a `@Skill` method returns (or resolves to): the body of its `SKILL.md` (the Markdown after
 * the front matter, which the extension writes from the decorator's options), or the body and
 * the skill's other files, keyed by their path relative to the skill's root (`references/api.md`).
 */
export type SkillContent = string | { readonly body: string; readonly files?: Readonly<Record<string, string | Uint8Array>> };
