import { METADATA_KEYS } from '../metadata/metadata-keys';
import { recordingDecorator, type MemberDecorator } from './member-decorator';
import type { SkillContent, SkillOptions } from '../metadata/skill-options';

export type { SkillContent, SkillOptions };

/**
 * Serves a method's output as a skill of the Skills extension (`io.modelcontextprotocol/skills`):
 * the method produces the skill's `SKILL.md` body, or the body and its other files, each time a
 * client reads it. Such a skill is listed with `resources: "dynamic"` (no digests can be
 * published for generated content). The class goes in the `providers` option of `skills()`, and
 * its instance comes from the server's container. The method receives the read's `Context`.
 *
 * @example
 * @injectable()
 * class ReportSkills {
 *   constructor(private readonly reports: Reports) {}
 *
 *   @Skill({ name: 'daily-report', description: "Assemble today's report from live data" })
 *   async daily(ctx: Context): Promise<SkillContent> {
 *     return { body: `# Daily report\n\nSee references/today.md.`, files: { 'references/today.md': await this.reports.today() } };
 *   }
 * }
 * new PhantomServer({ name: 'ops', version: '1.0.0', providers: [], extensions: [skills({ providers: [ReportSkills] })] });
 */
export function Skill(options: SkillOptions): MemberDecorator {
  return recordingDecorator(METADATA_KEYS.skills, '@Skill', options);
}
