import type { CacheHint } from '../../metadata/cache-hint';
import type { Constructor } from '../../metadata/metadata-store';

/**
 * Options of {@link skills}: where the skills come from, how they are served, and the bounds on
 * each. Every limit has a default.
 *
 * @example
 * skills({ folder: './skills', providers: [ReportSkills], scopes: { 'billing-refunds': ['billing:read'] } })
 */
export interface SkillsOptions {
  /**
   * A directory (or several) whose child directories are skills: `<name>/SKILL.md` and any other
   * files. Dot-files are skipped; symlinks and special files are refused, as are skills that break
   * the naming rules or a limit. Every problem is reported at once when the server starts.
   */
  readonly folder?: string | readonly string[];
  /** Classes whose `@Skill` methods produce skills at read time (instances from the server's container). */
  readonly providers?: readonly Constructor[];
  /**
   * An organizational prefix for every skill URI: `acme/billing` serves `skill://acme/billing/<name>/SKILL.md`.
   * Default: none (`skill://<name>/SKILL.md`).
   */
  readonly prefix?: string;
  /** Entries per page of `skills/list`, and children per page of `resources/directory/read`. Default 100. */
  readonly pageSize?: number;
  /** Whether to serve `resources/directory/read` (and advertise `directoryRead: true`). Default `true`. */
  readonly directoryRead?: boolean;
  /** The caching hint on `skills/list`, `skills/get`, `resources/directory/read` and skill reads (protocol 2026-07-28). Default `{ ttlMs: 0, scope: 'private' }`. */
  readonly cache?: CacheHint;
  /** The most files (`SKILL.md` included) a skill may have. Default 512, the extension's limit. */
  readonly maxFilesPerSkill?: number;
  /** The most bytes a skill's files may hold together. Default 16 MiB, the extension's limit. */
  readonly maxSkillBytes?: number;
  /** OAuth scopes a caller needs to get or read a folder skill, by skill name. */
  readonly scopes?: Readonly<Record<string, readonly string[]>>;
  /**
   * What an invalid skill in a folder does: `'fail'` (default) fails start-up (and `reload()`)
   * with every problem listed; `'skip'` leaves it out and reports each problem to the server's
   * diagnostics as a warning.
   */
  readonly invalidSkills?: 'fail' | 'skip';
}

/** The options with every default filled in. */
export interface ResolvedSkillsOptions {
  readonly folders: readonly string[];
  readonly providers: readonly Constructor[];
  readonly prefix: string;
  readonly pageSize: number;
  readonly directoryRead: boolean;
  readonly cache: CacheHint;
  readonly limits: SkillLimits;
  readonly scopes: Readonly<Record<string, readonly string[]>>;
  readonly invalidSkills: 'fail' | 'skip';
}

/** The bounds on one skill. */
export interface SkillLimits {
  readonly maxFiles: number;
  readonly maxBytes: number;
}

/** Default entries per page. */
export const DEFAULT_SKILLS_PAGE_SIZE = 100;
/** The extension's limit on entries per skill. */
export const DEFAULT_MAX_FILES_PER_SKILL = 512;
/** The extension's limit on bytes per skill: 16 MiB. */
export const DEFAULT_MAX_SKILL_BYTES = 16 * 1024 * 1024;
/** Default caching hint: not cached, and not shared between callers (visibility and scopes may differ). */
export const DEFAULT_SKILLS_CACHE: CacheHint = Object.freeze({ ttlMs: 0, scope: 'private' });

function positiveInteger(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`skills(): ${name} must be a positive integer, got ${value}`);
  return value;
}

/** Fills in the defaults and checks the numbers (a bad one is a `RangeError` when `skills()` is called). */
export function resolveSkillsOptions(options: SkillsOptions): ResolvedSkillsOptions {
  const folder = options.folder;
  return {
    folders: folder === undefined ? [] : typeof folder === 'string' ? [folder] : [...folder],
    providers: [...(options.providers ?? [])],
    prefix: options.prefix ?? '',
    pageSize: positiveInteger('pageSize', options.pageSize, DEFAULT_SKILLS_PAGE_SIZE),
    directoryRead: options.directoryRead ?? true,
    cache: options.cache ?? DEFAULT_SKILLS_CACHE,
    limits: {
      maxFiles: positiveInteger('maxFilesPerSkill', options.maxFilesPerSkill, DEFAULT_MAX_FILES_PER_SKILL),
      maxBytes: positiveInteger('maxSkillBytes', options.maxSkillBytes, DEFAULT_MAX_SKILL_BYTES),
    },
    scopes: options.scopes ?? {},
    invalidSkills: options.invalidSkills ?? 'fail',
  };
}
