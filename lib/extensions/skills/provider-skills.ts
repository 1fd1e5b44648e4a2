import type { Context } from '../../context/context';
import type { JsonObject } from '../../core/wire.types';
import { METADATA_KEYS } from '../../metadata/metadata-keys';
import { readMembers, readMisplaced, type Constructor } from '../../metadata/metadata-store';
import type { SkillContent, SkillOptions } from '../../metadata/skill-options';
import { memoryFiles } from './memory-skill';
import type { CatalogSkill, SkillFiles } from './skill-model';
import { skillNameProblem } from './skill-name';
import type { SkillUris } from './skill-uris';
import type { SkillLimits } from './skills-options';

/** The `@Skill` methods of the providers as catalog skills, or every problem found in them. */
export type ProviderScan = { readonly skills: readonly CatalogSkill[]; readonly problems: readonly string[] };

/** What scanning the providers needs: how to build an instance, name URIs, and bound what a method produces. */
export interface ProviderSettings {
  readonly uris: SkillUris;
  readonly limits: SkillLimits;
  readonly resolve: <T>(cls: new (...args: never[]) => T) => T;
}

const LABEL = '@Skill';

/** The options' problems, for the label `Class#method`. */
function optionProblems(options: SkillOptions): string[] {
  const problems: string[] = [];
  const nameProblem = skillNameProblem(options.name);
  if (nameProblem !== undefined) problems.push(nameProblem);
  if (typeof options.description !== 'string' || options.description.trim() === '') problems.push('a description is required');
  if (options.scopes !== undefined && (!Array.isArray(options.scopes) || options.scopes.some((scope) => typeof scope !== 'string' || scope === ''))) {
    problems.push('scopes must be non-empty strings');
  }
  const { metadata } = options;
  if (metadata !== undefined && (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata))) problems.push('metadata must be an object');
  return problems;
}

/**
 * Reads the `@Skill` methods of `providers` (checking every option, names unique across them)
 * and builds an instance of each provider from the server's container.
 */
export function scanSkillProviders(providers: readonly Constructor[], settings: ProviderSettings): ProviderScan {
  const problems: string[] = [];
  const skills: CatalogSkill[] = [];
  const seen = new Map<string, string>();
  for (const cls of providers) {
    for (const misplaced of readMisplaced(cls)) {
      if (misplaced.decorator === LABEL) problems.push(`${cls.name}#${misplaced.propertyKey}: ${LABEL} belongs on a method`);
    }
    const records = readMembers<SkillOptions>(METADATA_KEYS.skills, cls);
    if (records.length === 0) {
      problems.push(`${cls.name}: a skills provider needs at least one ${LABEL} method`);
      continue;
    }
    let instance: Record<string, unknown> | undefined;
    for (const { propertyKey, options } of records) {
      const label = `${cls.name}#${propertyKey}`;
      const found = optionProblems(options);
      const other = seen.get(options.name);
      if (other !== undefined) found.push(`the skill name "${options.name}" is already served by ${other}`);
      if (found.length > 0) {
        problems.push(...found.map((problem) => `${label}: ${problem}`));
        continue;
      }
      seen.set(options.name, label);
      instance ??= settings.resolve(cls as new (...args: never[]) => Record<string, unknown>);
      skills.push(providerSkill(options, label, instance, propertyKey, settings));
    }
  }
  return { skills, problems };
}

function providerSkill(options: SkillOptions, label: string, instance: Record<string, unknown>, method: string, settings: ProviderSettings): CatalogSkill {
  const frontmatter: JsonObject = { name: options.name, description: options.description };
  if (options.metadata !== undefined) frontmatter.metadata = JSON.parse(JSON.stringify(options.metadata));
  return {
    name: options.name,
    uri: settings.uris.skillMd(options.name),
    frontmatter,
    scopes: [...(options.scopes ?? [])],
    origin: 'provider',
    content: {
      kind: 'dynamic',
      produce: async (ctx: Context): Promise<SkillFiles> => {
        const produced = await (instance[method] as (ctx: Context) => SkillContent | Promise<SkillContent>).call(instance, ctx);
        return producedFiles(label, frontmatter, produced, settings.limits);
      },
    },
  };
}

/** Checks what a `@Skill` method returned: a bad value is the server's fault, answered as an internal error (its detail to diagnostics). */
function producedFiles(label: string, frontmatter: JsonObject, produced: SkillContent, limits: SkillLimits): SkillFiles {
  const shaped = typeof produced === 'string' ? { body: produced, files: {} } : produced;
  if (typeof shaped !== 'object' || shaped === null || typeof shaped.body !== 'string') {
    throw new TypeError(`${label} must return a string or { body, files }`);
  }
  const built = memoryFiles(frontmatter, shaped.body, shaped.files ?? {}, limits);
  if ('problems' in built) {
    throw new TypeError(`${label} produced an invalid skill: ${built.problems.join('; ')}`);
  }
  return built.files;
}
